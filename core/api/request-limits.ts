/** The limits of a cheat-sheet request, shared by the schema, the functions and the page's inputs. */

export const maxNameLength = 100;

/** The longest address SMTP allows (RFC 5321's path limit, less the angle brackets). */
export const maxEmailLength = 254;

/** The longest local part (before the `@`) SMTP allows: RFC 5321 §4.5.3.1.1. */
export const maxEmailLocalPartLength = 64;

/** The longest label (between dots) of a domain name: RFC 1035 §2.3.4. */
export const maxDomainLabelLength = 63;

/** A `{name, email}` within its limits is a few hundred bytes; 10 KB leaves room for any client. */
export const maxBodyBytes = 10 * 1024;

/**
 * The honeypot field `website`: people never see it, so any text in it was put there by a
 * script. A URL's practical maximum; longer is refused like any over-long field.
 */
export const maxWebsiteLength = 2048;
