// The HTML of the hosted pages: login (one page, identifier-first's two, or the page before any
// request is read), the one-time code challenge, consent and the logout confirmation. Plain forms that work without script,
// with the markup hosted login pages have (labels, autocomplete, one `state` per transaction),
// so that a browser walk meets the shapes it meets on real tenants. Every value is escaped.

/** Headers of every page: HTML, and never framed (a login or consent form inside another site is clickjacking). */
export const htmlHeaders = { 'content-type': 'text/html; charset=utf-8', 'x-frame-options': 'DENY' };

/** One page: email address and password (the default profile; the exact bytes it always had). */
export function loginPage(action: string, txId: string, clientId: string, message: string): string {
  return page(
    'Log in',
    intro('Log in', continueTo(clientId), message),
    form(action, ['state', txId], field('username', 'Email address', TEXT_USERNAME), password(''), CONTINUE),
  );
}

/**
 * `loginFirst`: the login before any authorization request is read, as a web framework's login
 * page: no client named, and where to go afterwards in a hidden `next`.
 */
export function sessionLoginPage(action: string, next: string, message: string): string {
  return page(
    'Log in',
    intro('Log in', null, message),
    form(
      action,
      ['next', next],
      field('username', 'Email address', `${TEXT_USERNAME} autofocus`),
      password(''),
      '<input type="submit" value="Log in">',
    ),
  );
}

/** Identifier-first, page 1: the email address alone. */
export function identifierPage(
  action: string,
  txId: string,
  clientId: string,
  username: string,
  message: string,
): string {
  const email = `type="email" inputmode="email" autocomplete="username" autocapitalize="none" spellcheck="false" value="${esc(username)}" required autofocus`;
  return page(
    'Log in',
    intro('Log in', continueTo(clientId), message),
    form(action, ['state', txId], field('username', 'Email address', email), CONTINUE),
  );
}

/** Identifier-first, page 2: the email address read-only (with a way back to change it), the password. */
export function passwordPage(
  action: string,
  editUrl: string,
  txId: string,
  clientId: string,
  username: string,
  message: string,
): string {
  return page(
    'Enter your password',
    intro('Enter your password', continueTo(clientId), message),
    form(
      action,
      ['state', txId],
      field('username', 'Email address', `type="email" autocomplete="username" value="${esc(username)}" readonly`),
      `<a href="${esc(editUrl)}">Edit email address</a>`,
      password(' autofocus'),
      CONTINUE,
    ),
  );
}

/** Second factor: a one-time code from an authenticator app. */
export function otpPage(action: string, txId: string, message: string): string {
  const otp = 'type="text" inputmode="numeric" autocomplete="one-time-code" required autofocus';
  return page(
    'Verify your identity',
    intro('Verify your identity', 'Enter the one-time code from your authenticator app.', message),
    form(action, ['state', txId], field('otp', 'One-time code', otp), '<button type="submit">Verify</button>'),
  );
}

/** The consent page's two controls, decline first, as each `consentControls` shape has them. */
const CONSENT_CONTROLS = {
  buttons: `<button type="submit" name="decision" value="deny">Decline</button>
    <button type="submit" name="decision" value="accept">Accept</button>`,
  // As a Python framework's approval page: the label is the posted value.
  inputs: `<input type="submit" name="decision" value="Cancel">
    <input type="submit" name="decision" value="Authorize">`,
  // As a Java framework's: the label in an element of its own inside the button.
  nested: `<button type="submit" name="decision" value="deny"><span class="label">Deny Access</span></button>
    <button type="submit" name="decision" value="accept"><span class="label">Grant Access</span></button>`,
} as const;

/** Consent: the scopes the client asked for, Decline first (what Enter submits is the safe answer). */
export function consentPage(
  action: string,
  txId: string,
  clientId: string,
  username: string,
  scopes: string[],
  message: string,
  controls: keyof typeof CONSENT_CONTROLS = 'buttons',
): string {
  const items = scopes.map((s) => `\n    <li>${esc(s)}</li>`).join('');
  const asking = `Hi ${esc(username)}, ${esc(clientId)} is asking for access to your account:`;
  return page(
    `Authorize ${clientId}`,
    intro(`Authorize ${esc(clientId)}`, asking, message),
    `  <ul>${items}\n  </ul>`,
    form(action, ['state', txId], CONSENT_CONTROLS[controls]),
  );
}

/** Logout confirmation: the pending logout's id, and the two answers. */
export function logoutConfirmPage(action: string, logoutId: string): string {
  return page(
    'Sign out',
    intro('Do you want to sign out?', null, ''),
    form(
      action,
      ['state', logoutId],
      '<button type="submit" name="action" value="logout">Yes, sign out</button>',
      '<button type="submit" name="action" value="cancel">Cancel</button>',
    ),
  );
}

/** A page that only tells (the logout cancelled). */
export function noticePage(title: string, text: string): string {
  return page(title, intro(esc(title), esc(text), ''));
}

// Helpers

const TEXT_USERNAME = 'type="text" autocomplete="username" required';
const CONTINUE = '<button type="submit">Continue</button>';
const continueTo = (clientId: string): string => `to continue to ${esc(clientId)}`;

/** A page's heading (markup), the line under it when there is one, and the message as an alert. */
function intro(heading: string, lead: string | null, message: string): string {
  return `  <h1>${heading}</h1>${lead === null ? '' : `\n  <p>${lead}</p>`}${alert(message)}`;
}

/** A form posting its one hidden value (the transaction's `state`, or where to go next) and its controls. */
function form(action: string, [name, value]: [string, string], ...controls: string[]): string {
  return `  <form method="post" action="${esc(action)}">
    <input type="hidden" name="${name}" value="${esc(value)}">
${controls.map((c) => `    ${c}`).join('\n')}
  </form>`;
}

/** A labelled input named by its id. */
function field(id: string, label: string, attributes: string): string {
  return `<label for="${id}">${label}</label>\n    <input id="${id}" name="${id}" ${attributes}>`;
}

/** The password field (after the username, or alone with `autofocus`). */
function password(extra: string): string {
  return field('password', 'Password', `type="password" autocomplete="current-password" required${extra}`);
}

/** A whole page: its title, and the parts of its main element, a line each. */
function page(title: string, ...main: string[]): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:sans-serif;max-width:22rem;margin:4rem auto}label,input,button{display:block;width:100%;margin:.4rem 0}.error{color:#b00}</style>
</head>
<body>
<main>
${main.join('\n')}
</main>
</body>
</html>
`;
}

function alert(message: string): string {
  return message ? `\n  <p role="alert" class="error">${esc(message)}</p>` : '';
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
