// The login walk's vocabularies (lib/auth/control-words.ts): each label of the real pages the
// suite was tried on is found by its own control's words only; an accept or confirm word never
// finds a decline control, nor a submit word a control that cancels.
import { expect, test } from '@playwright/test';
import { CONTROL_NAMES } from '../lib/auth/control-words.ts';

/** Labels as servers ship them (accessible names: whitespace collapsed), by the control they are. */
const LABELS = {
  accept: ['Accept', 'Allow', 'Authorize', 'Authorise', 'Grant Access', 'Submit Consent', 'Continue', 'Yes', 'Approve'],
  decline: ['Deny', 'Decline', 'Cancel', 'Deny Access', 'No', 'No, thanks', "Don't allow", 'Not now', 'Reject'],
  submit: ['Continue', 'Sign In', 'Sign-in', 'Log in', 'Login', 'Next', 'Verify', 'Go', 'Submit'],
  logoutConfirm: ['Yes, sign me out', 'Sign out', 'Log out', 'Logout', 'Yes', 'Confirm'],
} as const;

test('each vocabulary finds its own labels', () => {
  for (const [control, labels] of Object.entries(LABELS))
    for (const label of labels)
      expect(CONTROL_NAMES[control as keyof typeof LABELS].test(label), `${control}: ${label}`).toBe(true);
  expect(CONTROL_NAMES.declineLink.test('[ Cancel ]')).toBe(true);
  expect(CONTROL_NAMES.declineLink.test('No account? Sign up'), 'a link starting with "no" is no decline').toBe(false);
});

test('an accept, submit or confirm word never finds a decline control', () => {
  const declines = [...LABELS.decline, 'Cancel and continue', 'Allow? No', 'No, stay signed in', 'Do not allow'];
  for (const label of declines)
    for (const control of ['accept', 'submit', 'logoutConfirm'] as const)
      expect(CONTROL_NAMES[control].test(label), `${control} must not find "${label}"`).toBe(false);
  for (const label of LABELS.accept) expect(CONTROL_NAMES.decline.test(label), `decline: ${label}`).toBe(false);
});
