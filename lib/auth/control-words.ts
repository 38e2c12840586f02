// The words the login walk finds its buttons by, each vocabulary once (issue 40, item 1): a
// control is found as a person finds it, by its role and accessible name (Playwright's
// getByRole), which covers <button>, <input type=submit|button> and role=button alike and reads
// a label wherever the markup nests it (`<button><span>Grant Access</span></button>`). A
// `:text-matches()` selector matched the <span>, never the button. An IDM_LOGIN_*_SELECTOR
// setting replaces its control's vocabulary (lib/auth/page-view.ts).

/** What declines a consent page (RFC 6749 §4.1.2.1): the first word of its label. */
const DECLINE_WORDS = ['deny', 'decline', 'cancel', 'reject', 'refuse', 'no', 'not now', "don't allow", 'do not allow'];
/** A link declines too ("[ Cancel ]"); "no" starts too many links that are no answer ("No account? Sign up"). */
const DECLINE_LINK_WORDS = DECLINE_WORDS.filter((w) => w !== 'no');
/** What accepts a consent page, or passes an interstitial page without fields. */
const ACCEPT_WORDS = [
  'accept',
  'allow',
  'authori[sz]e',
  'approve',
  'submit consent',
  'continue',
  'yes',
  'agree',
  'grant',
  'confirm',
];
/** What submits a filled login field (in the field's own form first; without one, Enter). */
const SUBMIT_WORDS = ['continue', 'next', 'log ?in', 'sign[ -]?in', 'submit', 'verify', 'go', 'ok', 'proceed', 'enter'];
/** What confirms a logout-confirmation page. */
const LOGOUT_WORDS = ['yes', 'confirm', 'continue'];

/** A label that starts with one of `words` (leading spaces and brackets aside), whole words only. */
const starting = (words: readonly string[]) => `[\\s[(]*(${words.join('|')})(?![a-z])`;
/** No decline word anywhere: a label holding one is no acceptance ("Allow? No", "Cancel and continue"). */
const noDecline = `(?!.*\\b(${DECLINE_WORDS.join('|')})\\b)`;
const names = (pattern: string) => new RegExp(`^${pattern}`, 'i');

/** The accessible names of each control the walk clicks when no selector setting names it. */
export const CONTROL_NAMES = {
  accept: names(`${noDecline}${starting(ACCEPT_WORDS)}`),
  decline: names(starting(DECLINE_WORDS)),
  declineLink: names(starting(DECLINE_LINK_WORDS)),
  submit: names(`${noDecline}${starting(SUBMIT_WORDS)}`),
  // "Yes, sign me out", "Sign out", "Log out of every app": sign or log out anywhere in the label.
  logoutConfirm: names(`${noDecline}(.*\\b(sign|log) ?(me )?out(?![a-z])|${starting(LOGOUT_WORDS)})`),
} as const;
