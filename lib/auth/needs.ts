// The settings the authentication tests need most often, each as the record a test is skipped
// with while it is unset (the run's: the verdict cannot speak for what it leaves unjudged).
import { runSkip } from '../skip-record.ts';

export const NO_REDIRECT_URI = runSkip(
  { setting: 'IDM_REDIRECT_URI' },
  'needs a redirect URI registered for the clients: set IDM_REDIRECT_URI',
);

export const NO_POST_CLIENT = runSkip(
  { setting: 'IDM_POST_CLIENT_ID' },
  'needs an authentication-API client: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET',
);

export const NO_PUBLIC_CLIENT = runSkip(
  { setting: 'IDM_PUBLIC_CLIENT_ID' },
  'needs a public client: set IDM_PUBLIC_CLIENT_ID',
);
