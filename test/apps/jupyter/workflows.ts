import type { Workflow } from '../types'
import { listFolder, readFile } from './browse'
import { deleteFile, renameFile, uploadFile } from './files'
import { createFolder } from './folder'
import { login } from './login'

/** Jupyter's workflows: two reads, four writes through the Contents API, and the login form. */
export const WORKFLOWS: Workflow[] = [
  listFolder,
  readFile,
  renameFile,
  createFolder,
  deleteFile,
  uploadFile,
  login,
]
