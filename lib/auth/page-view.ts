// What the login walk sees on a page of the hosted login (lib/auth/login-walk.ts): the
// controls it knows how to drive (a username or e-mail field, a password field, found by the
// configured selectors; a consent or logout-confirmation button, found by its role and accessible
// name unless a selector setting names it), the fields and buttons it does not know (named when
// the walk cannot go on), the page's title and any alert it shows. Only what a person could use
// counts: visible and enabled, and for fields, editable.
import type { Locator, Page } from '@playwright/test';
import { CONTROL_NAMES } from './control-words.ts';

/**
 * The controls the walk drives: the fields' selectors (IDM_LOGIN_USERNAME_SELECTOR,
 * IDM_LOGIN_PASSWORD_SELECTOR), and the buttons' selector settings, null where unset: then found
 * by role and accessible name (lib/auth/control-words.ts).
 */
export interface LoginControls {
  username: string;
  password: string;
  submit: string | null;
  consentAccept: string | null;
  consentDecline: string | null;
  logoutConfirm: string | null;
}

type Button = 'submit' | 'consentAccept' | 'consentDecline' | 'logoutConfirm';

/** A button of the walk: the selector setting where it is set, else by role and accessible name. */
function button(scope: Page | Locator, c: LoginControls, which: Button): Locator {
  const selector = c[which];
  if (selector !== null) return scope.locator(selector);
  switch (which) {
    case 'submit':
      return scope.getByRole('button', { name: CONTROL_NAMES.submit });
    case 'consentAccept':
      return scope.getByRole('button', { name: CONTROL_NAMES.accept });
    case 'consentDecline':
      return scope
        .getByRole('button', { name: CONTROL_NAMES.decline })
        .or(scope.getByRole('link', { name: CONTROL_NAMES.declineLink }));
    case 'logoutConfirm':
      return scope.getByRole('button', { name: CONTROL_NAMES.logoutConfirm });
  }
}

export interface PageView {
  /** `<origin><path>` of the page (no query: it may carry a transaction id or a code). */
  at: string;
  title: string;
  username: Locator | null;
  password: Locator | null;
  accept: Locator | null;
  decline: Locator | null;
  logoutConfirm: Locator | null;
  /** Fields a person could fill that no selector names (e.g. a one-time code). */
  unknownFields: string[];
  /** Texts of the visible buttons, for the one line that names a page the walk cannot drive. */
  buttons: string[];
  /** The text of a visible alert or error message, when the page shows one. */
  alert: string | null;
}

const ALERTS = '[role=alert], [aria-live=assertive], .error, .alert, .alert-danger, #error, .error-message';

export async function viewOf(page: Page, c: LoginControls): Promise<PageView> {
  // One round trip each, all at once: a login is a few pages, and each page is read once.
  const [username, password, accept, decline, logoutConfirm, fields, buttons, alerts, title] = await Promise.all([
    firstUsable(page.locator(c.username), true),
    firstUsable(page.locator(c.password), true),
    firstUsable(button(page, c, 'consentAccept'), false),
    firstUsable(button(page, c, 'consentDecline'), false),
    firstUsable(button(page, c, 'logoutConfirm'), false),
    page
      .locator('input, textarea, select')
      .evaluateAll(typedFields)
      .catch(() => [] as TypedField[]),
    page
      .locator('button, input[type=submit], input[type=button]')
      .evaluateAll(buttonTexts)
      .catch(() => []),
    page
      .locator(ALERTS)
      .evaluateAll(alertTexts)
      .catch(() => []),
    page.title().catch(() => ''),
  ]);
  const known = await Promise.all([username, password].map((l) => (l ? l.evaluate(identify).catch(() => '') : '')));
  return {
    at: pathOf(page.url()),
    title: oneLine(title),
    username,
    password,
    accept,
    decline,
    logoutConfirm,
    unknownFields: fields.filter((f) => !known.includes(f.id)).map((f) => f.description),
    // As the page has it, whitespace included: a label a selector missed shows why.
    buttons: buttons.map((b) => JSON.stringify(b.length > 80 ? `${b.slice(0, 80)}…` : b)),
    alert: alerts.length > 0 ? oneLine(alerts[0] ?? '') : null,
  };
}

/** Any control the walk drives, to wait for its showing (a page rendered by script shows them late). */
export function anyControl(page: Page, c: LoginControls): Locator {
  return page
    .locator(c.username)
    .or(page.locator(c.password))
    .or(button(page, c, 'consentAccept'))
    .or(button(page, c, 'consentDecline'))
    .or(button(page, c, 'logoutConfirm'));
}

/** How many of the walk's fields and consent buttons show: a count that changes when a script shows or hides one. */
export async function controlCounts(page: Page, c: LoginControls): Promise<string> {
  const shown = [
    page.locator(c.username),
    page.locator(c.password),
    button(page, c, 'consentAccept'),
    button(page, c, 'consentDecline'),
  ];
  return (
    await Promise.all(
      shown.map((l) =>
        l
          .filter({ visible: true })
          .count()
          .catch(() => -1),
      ),
    )
  ).join(',');
}

/** The submit control of the form `field` is in (else of the page), or null: the walk then presses Enter. */
export async function submitOf(page: Page, field: Locator, c: LoginControls): Promise<Locator | null> {
  const form = field.locator('xpath=ancestor::form[1]');
  if ((await form.count()) > 0) {
    const own = await firstUsable(button(form, c, 'submit'), false);
    if (own) return own;
  }
  return firstUsable(button(page, c, 'submit'), false);
}

/** `"Continue"`, `otp`: how a control is named in the walk's evidence (its text or value quoted, else its name). */
export async function labelOf(l: Locator): Promise<string> {
  const text = oneLine(((await l.textContent().catch(() => '')) ?? '') || ((await l.getAttribute('value')) ?? ''));
  return text === '' ? ((await l.getAttribute('name')) ?? 'a button') : `"${text}"`;
}

export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

// Helpers

async function firstUsable(found: Locator, typed: boolean): Promise<Locator | null> {
  let all: Locator[];
  try {
    all = await found.filter({ visible: true }).all();
  } catch {
    return null; // a selector the engine cannot parse matches nothing (npm run config names the setting)
  }
  for (const l of all) if (await usable(l, typed)) return l;
  return null;
}

async function usable(l: Locator, typed: boolean): Promise<boolean> {
  try {
    return typed ? await l.isEditable() : await l.isEnabled();
  } catch {
    return false; // detached while looking: the page is changing
  }
}

interface TypedField {
  id: string;
  description: string;
}

// The functions below run in the page (evaluateAll); the suite's tsconfig has no DOM types.
interface PageElement {
  outerHTML: string;
  tagName: string;
  textContent: string | null;
  value?: string;
  disabled?: boolean;
  readOnly?: boolean;
  getAttribute(name: string): string | null;
  getClientRects(): { length: number };
}

/** Visible, enabled, editable fields a person types into, each with its identity and how to name it. */
function typedFields(els: unknown[]): TypedField[] {
  const notTyped = ['hidden', 'submit', 'button', 'checkbox', 'radio', 'image', 'reset', 'file'];
  return (els as PageElement[])
    .filter((el) => {
      const type = (el.getAttribute('type') ?? 'text').toLowerCase();
      return el.getClientRects().length > 0 && !el.disabled && !el.readOnly && !notTyped.includes(type);
    })
    .map((el) => {
      const type = (el.getAttribute('type') ?? (el.tagName === 'INPUT' ? 'text' : el.tagName)).toLowerCase();
      const name = el.getAttribute('name') ?? el.getAttribute('id');
      const hint = el.getAttribute('autocomplete') ?? el.getAttribute('placeholder');
      return {
        id: el.outerHTML.slice(0, 300),
        description: `${name ? `[name=${name}]` : 'a field'} (${type}${hint ? `, ${hint}` : ''})`,
      };
    });
}

function buttonTexts(els: unknown[]): string[] {
  return (els as PageElement[])
    .filter((el) => el.getClientRects().length > 0 && !el.disabled)
    .map((el) => el.textContent || el.value || el.getAttribute('name') || 'a button');
}

function alertTexts(els: unknown[]): string[] {
  return (els as PageElement[])
    .filter((el) => el.getClientRects().length > 0)
    .map((el) => (el.textContent ?? '').trim())
    .filter((t) => t !== '');
}

/** A stable identity of an element within the page (runs in the page). */
function identify(el: unknown): string {
  return (el as PageElement).outerHTML.slice(0, 300);
}

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 120 ? `${t.slice(0, 117)}…` : t;
}
