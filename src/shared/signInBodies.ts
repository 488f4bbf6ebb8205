/**
 * Bodies of a one-time sign-in link's page (`/signin/<token>/submit` and `/finish`): what the
 * person types where the site's own window cannot be seen (headless), and what to keep after.
 */
import { Type } from '@sinclair/typebox'

const REQUIRED = { 'x-message': '"username" and "password" are required.' }

/** What the person may ask to keep, as they submit or finish: sealed secrets and a TOTP seed. */
const KEEP = {
  totpSeed: Type.Optional(
    Type.String({ maxLength: 2000, description: 'A TOTP seed (Base32 or otpauth://) to keep.' }),
  ),
  saveCredentials: Type.Optional(
    Type.Boolean({ description: 'Keep the username and password typed as sealed secrets.' }),
  ),
}

/** Body of `POST /signin/{token}/submit`: the sign-in the service types for the person. */
export const SIGN_IN_SUBMIT_BODY_SCHEMA = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 500, ...REQUIRED }),
    password: Type.String({ minLength: 1, maxLength: 1000, ...REQUIRED }),
    code: Type.Optional(
      Type.String({ maxLength: 20, description: 'A one-time code, when the site asks for one.' }),
    ),
    ...KEEP,
  },
  { additionalProperties: false },
)

/** Body of `POST /signin/{token}/finish`: the person signed in in the window; what to keep. */
export const SIGN_IN_FINISH_BODY_SCHEMA = Type.Object(KEEP, { additionalProperties: false })
