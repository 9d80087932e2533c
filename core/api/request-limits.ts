/** The limits of a cheat-sheet request, shared by the schema and the page's inputs. */

export const maxNameLength = 100;

/** The longest address SMTP allows (RFC 5321's path limit, less the angle brackets). */
export const maxEmailLength = 254;
