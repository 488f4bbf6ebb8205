export { createVault, type Vault, type VaultDeps, type VaultStatus } from './vault'
export {
  createKeychain,
  type Keychain,
  type KeychainAnswer,
  type KeychainOptions,
} from './keychain'
export {
  bindStepSecrets,
  createRunSecrets,
  type BoundSecret,
  type RunSecrets,
  type SecretRefusal,
  type StepSecrets,
} from './runSecrets'
export {
  checkSecretName,
  checkSecretValue,
  hostAllowed,
  normalizeSecretHosts,
  SECRET_NAME,
} from './secretPolicy'
