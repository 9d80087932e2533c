/**
 * The author's mail provider as the build knew it (`MAIL_PROVIDER`, which frontend/vite.config.ts
 * checks and defines for both builds), so the pre-rendered page and the hydrated island say the
 * same; undefined without one, and in tests, where nothing defines it.
 */

import { isMailProvider, type MailProvider } from '../../core/data/mail-provider';

declare const __MAIL_PROVIDER__: string | undefined;

export const buildMailProvider: MailProvider | undefined =
  typeof __MAIL_PROVIDER__ !== 'undefined' && isMailProvider(__MAIL_PROVIDER__) ? __MAIL_PROVIDER__ : undefined;
