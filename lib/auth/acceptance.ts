// Kept for lib/auth/methods/ alone until it reads `ex.answer.issued` itself (issue 46: the lead
// converts it at merge, then this file goes): whether a token was issued is decided once, when the
// answer is received (lib/answer-class.ts `received`), never here.
import type { Exchange } from '../http.ts';

/** @deprecated read `ex.answer.issued` (RFC 6749 §5.1, decided where the answer was received). */
export const issued = (ex: Exchange): boolean => ex.answer.issued !== null;
