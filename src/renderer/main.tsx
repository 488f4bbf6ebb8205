import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { establishSession } from './api'
import './styles.css'

void establishSession().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
)
