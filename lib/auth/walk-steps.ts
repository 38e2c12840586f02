// What the login walk did on each page, as data (issue 39): the page (its status, where, its
// title), the fields it filled, the boxes it ticked, the control it used and where the walk
// ended there. Decisions read these records; the one line each renders to is for people
// (auth.flow.login-pages, the evidence of a login that gave nothing).

export interface WalkStep {
  /** The status the page was answered with (null: none seen). */
  status: number | null;
  /** `<origin><path>` of the page (no query: it may carry a transaction id or a code). */
  at: string;
  title: string;
  /** The fields filled, in order. */
  filled: Array<'username' | 'password'>;
  /** What was ticked on a consent form: each box's scope, name or label. */
  ticked: string[];
  /** How the walk went on: a control clicked (its label, for people), Enter pressed in the field, or nothing. */
  acted: { control: 'submit' | 'accept' | 'decline' | 'logout'; label: string } | 'enter' | null;
  /** Where the walk ended on this page, when it ended there. */
  end: StepEnd | null;
}

export type StepEnd =
  /** The tenant refused the login (the password asked again, an alert after it, its status). */
  | { kind: 'refused'; why: string }
  /** The tenant answered with an error status and nothing to drive. */
  | { kind: 'answered' }
  /** A consent page to decline without a decline control. */
  | { kind: 'no-decline' }
  /** A logout page with nothing to press: where the logout ended. */
  | { kind: 'own-page' }
  /** A page the walk cannot drive (the suite's gap). */
  | { kind: 'not-driven' };

/** The walk did something there: filled a field or used a control (a page it only looked at did not). */
export function drove(s: WalkStep): boolean {
  return s.filled.length > 0 || s.acted !== null;
}

/** `200 https://login.example/u/login "Log in": filled username, password; clicked "Continue"`. */
export function describeStep(s: WalkStep): string {
  return `${where(s)}: ${what(s)}`;
}

/** The pages walked, in one line. */
export function describeSteps(steps: readonly WalkStep[]): string {
  return steps.map(describeStep).join(' → ');
}

/** The page of a step: its status, where and its title. */
export function where(s: Pick<WalkStep, 'status' | 'at' | 'title'>): string {
  return `${s.status ?? '-'} ${s.at}${s.title ? ` "${s.title}"` : ''}`;
}

/** What was done on the page, or how the walk ended there. */
export function what(s: WalkStep): string {
  if (s.end !== null) return ending(s);
  const done = [
    ...(s.filled.length > 0 ? [`filled ${s.filled.join(', ')}`] : []),
    ...(s.ticked.length > 0 ? [`ticked ${s.ticked.join(', ')}`] : []),
    s.acted === 'enter' ? 'pressed Enter' : s.acted === null ? 'nothing' : `clicked ${s.acted.label}`,
  ];
  return done.join('; ');
}

// Helpers

function ending(s: WalkStep): string {
  switch (s.end?.kind) {
    case 'refused':
      return `refused (${s.end.why})`;
    case 'answered':
      return `the tenant's answer ${s.status ?? '-'}`;
    case 'no-decline':
      return 'a consent page without a decline control (IDM_LOGIN_DECLINE_SELECTOR)';
    case 'own-page':
      return "the tenant's own page";
    default:
      return 'not driven';
  }
}
