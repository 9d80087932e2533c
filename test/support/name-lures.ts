/**
 * Names the e-mail must not greet anyone with (issue 19's lures: each reads as a link, a host, a
 * phone number, or displays differently from what it holds), and real names it must greet.
 */

export const lureNames: readonly string[] = [
  'Visit evil.de now',
  'Claim refund at secure-login.ai',
  'paypal-verify.zip',
  'https：//evil.de',
  'evil\u200B.com',
  'Call +1 800 555 0100 re: your locked account',
  '\u202Emoc.lapyap',
];

export const realNames: readonly string[] = ["Zoë O'Brien-Smith", 'J. R. Tolkien', '李小龙', 'Ada Lovelace'];
