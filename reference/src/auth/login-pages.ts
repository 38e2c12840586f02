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
    `  <h1>Log in</h1>
  <p>to continue to ${esc(clientId)}</p>${alert(message)}
  <form method="post" action="${esc(action)}">
    <input type="hidden" name="state" value="${esc(txId)}">
    <label for="username">Email address</label>
    <input id="username" name="username" type="text" autocomplete="username" required>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit">Continue</button>
  </form>`,
  );
}

/**
 * `loginFirst`: the login before any authorization request is read, as a web framework's login
 * page: no client named, and where to go afterwards in a hidden `next`.
 */
export function sessionLoginPage(action: string, next: string, message: string): string {
  return page(
    'Log in',
    `  <h1>Log in</h1>${alert(message)}
  <form method="post" action="${esc(action)}">
    <input type="hidden" name="next" value="${esc(next)}">
    <label for="username">Email address</label>
    <input id="username" name="username" type="text" autocomplete="username" required autofocus>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <input type="submit" value="Log in">
  </form>`,
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
  return page(
    'Log in',
    `  <h1>Log in</h1>
  <p>to continue to ${esc(clientId)}</p>${alert(message)}
  <form method="post" action="${esc(action)}">
    <input type="hidden" name="state" value="${esc(txId)}">
    <label for="username">Email address</label>
    <input id="username" name="username" type="email" inputmode="email" autocomplete="username" autocapitalize="none" spellcheck="false" value="${esc(username)}" required autofocus>
    <button type="submit">Continue</button>
  </form>`,
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
    `  <h1>Enter your password</h1>
  <p>to continue to ${esc(clientId)}</p>${alert(message)}
  <form method="post" action="${esc(action)}">
    <input type="hidden" name="state" value="${esc(txId)}">
    <label for="username">Email address</label>
    <input id="username" name="username" type="email" autocomplete="username" value="${esc(username)}" readonly>
    <a href="${esc(editUrl)}">Edit email address</a>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
    <button type="submit">Continue</button>
  </form>`,
  );
}

/** Second factor: a one-time code from an authenticator app. */
export function otpPage(action: string, txId: string, message: string): string {
  return page(
    'Verify your identity',
    `  <h1>Verify your identity</h1>
  <p>Enter the one-time code from your authenticator app.</p>${alert(message)}
  <form method="post" action="${esc(action)}">
    <input type="hidden" name="state" value="${esc(txId)}">
    <label for="otp">One-time code</label>
    <input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" required autofocus>
    <button type="submit">Verify</button>
  </form>`,
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
  return page(
    `Authorize ${clientId}`,
    `  <h1>Authorize ${esc(clientId)}</h1>
  <p>Hi ${esc(username)}, ${esc(clientId)} is asking for access to your account:</p>${alert(message)}
  <ul>${items}
  </ul>
  <form method="post" action="${esc(action)}">
    <input type="hidden" name="state" value="${esc(txId)}">
    ${CONSENT_CONTROLS[controls]}
  </form>`,
  );
}

/** Logout confirmation: the pending logout's id, and the two answers. */
export function logoutConfirmPage(action: string, logoutId: string): string {
  return page(
    'Sign out',
    `  <h1>Do you want to sign out?</h1>
  <form method="post" action="${esc(action)}">
    <input type="hidden" name="state" value="${esc(logoutId)}">
    <button type="submit" name="action" value="logout">Yes, sign out</button>
    <button type="submit" name="action" value="cancel">Cancel</button>
  </form>`,
  );
}

/** A page that only tells (the logout cancelled). */
export function noticePage(title: string, text: string): string {
  return page(title, `  <h1>${esc(title)}</h1>\n  <p>${esc(text)}</p>`);
}

// Helpers

function page(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:sans-serif;max-width:22rem;margin:4rem auto}label,input,button{display:block;width:100%;margin:.4rem 0}.error{color:#b00}</style>
</head>
<body>
<main>
${main}
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
