import { createTransport } from 'nodemailer';

import type { Mailer } from '../app/email-outbox';

/** The SMTP relay at `url` (smtp:// or smtps://, credentials in the URL), sending from `from`. */
export function smtpMailer(url: string, from: string): Mailer & { close(): void } {
  const transport = createTransport(url);
  return {
    send: async ({ to, subject, text }) => {
      await transport.sendMail({ from, to, subject, text });
    },
    close: () => transport.close(),
  };
}
