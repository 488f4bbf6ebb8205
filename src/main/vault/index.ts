export { createVault, type Vault } from './vault'
export { createKeychain, type Keychain, type KeychainAnswer } from './keychain'
export { bindStepSecrets, createRunSecrets, type BoundSecret, type RunSecrets } from './runSecrets'
export { hostAllowed, normalizeSecretHosts } from './secretPolicy'
