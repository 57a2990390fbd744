import type { AddressInfo } from 'node:net';

import { merchantsV1 } from '@sika/contracts';
import { AppError } from '@sika/platform';
import type { TestSchema } from '@sika/testing';
import { SMTPServer } from 'smtp-server';

import { createMerchantsSchema, startMerchants } from './support/merchants-server';
import type { RunningMerchants } from './support/merchants-server';

const { EmailKind, EmailStatus } = merchantsV1;

/** One message as the SMTP server received it. */
interface Received {
  from: string;
  to: string[];
  data: string;
}

/** A real SMTP server in this process (smtp-server), plain and without authentication, as a local relay. */
async function startSmtpServer(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function createMerchant(merchants: RunningMerchants): Promise<string> {
  return (await merchants.client.createMerchant({ name: 'Boutique Adjoua' })).merchant!.id;
}

function emailsOf(merchants: RunningMerchants, merchantId: string): Promise<merchantsV1.Email[]> {
  return merchants.client.listEmails({ merchantId, limit: 0 }).then((answer) => answer.emails);
}

describe('the outbox of emails, with an SMTP relay', () => {
  let schema: TestSchema;
  let merchants: RunningMerchants;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    schema = await createMerchantsSchema('emails_smtp');
    merchants = await startMerchants(schema, undefined, {
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Sika <no-reply@sika.test>',
    });
  });

  afterAll(async () => {
    await merchants?.stop();
    await smtp?.close();
    await schema?.drop();
  });

  it('sends a recorded email once through the relay and marks it sent, with the fixed text only', async () => {
    const merchantId = await createMerchant(merchants);
    const { emailId } = await merchants.client.recordEmail({
      merchantId,
      to: 'adjoua@boutique.example',
      kind: EmailKind.EMAIL_KIND_WEBHOOK_SECRET_ROLLED,
      livemode: true,
      sendAfterSeconds: 0,
    });

    const [email] = await until(
      () => emailsOf(merchants, merchantId),
      (emails) => emails[0]?.status === EmailStatus.EMAIL_STATUS_SENT,
    );
    expect(email).toMatchObject({
      id: emailId,
      to: 'adjoua@boutique.example',
      status: EmailStatus.EMAIL_STATUS_SENT,
      attempts: 1,
      subject: 'Your live webhook secret was rolled',
    });
    expect(email?.sentAt).toBeInstanceOf(Date);
    const delivered = smtp.received.filter((message) => message.to.includes('adjoua@boutique.example'));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.from).toBe('no-reply@sika.test');
    expect(delivered[0]?.data).toContain('Subject: Your live webhook secret was rolled');
    expect(delivered[0]?.data).not.toMatch(/whsec_|sk_(test|live)_/);
  });

  it('never sends an email withdrawn before it was due', async () => {
    const merchantId = await createMerchant(merchants);
    const { emailId } = await merchants.client.recordEmail({
      merchantId,
      to: 'withdrawn@boutique.example',
      kind: EmailKind.EMAIL_KIND_PAYOUT_ACCOUNT_SET,
      livemode: false,
      sendAfterSeconds: 60,
    });
    await merchants.client.cancelEmail({ emailId });
    await merchants.client.cancelEmail({ emailId });

    const [email] = await emailsOf(merchants, merchantId);
    expect(email?.status).toBe(EmailStatus.EMAIL_STATUS_CANCELED);
    expect(smtp.received.some((message) => message.to.includes('withdrawn@boutique.example'))).toBe(false);
  });

  it('refuses an address with control characters, naming the field', async () => {
    const merchantId = await createMerchant(merchants);
    const refusal = await merchants.client
      .recordEmail({
        merchantId,
        to: 'a\u0000b@boutique.example',
        kind: EmailKind.EMAIL_KIND_WELCOME,
        livemode: false,
        sendAfterSeconds: 0,
      })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'parameter_invalid', param: 'to' });
  });
});

describe('the outbox of emails, without an SMTP relay', () => {
  let schema: TestSchema;
  let merchants: RunningMerchants;

  beforeAll(async () => {
    schema = await createMerchantsSchema('emails_unsent');
    merchants = await startMerchants(schema);
  });

  afterAll(async () => {
    await merchants?.stop();
    await schema?.drop();
  });

  it('keeps the email recorded and marks it unsent, never sent', async () => {
    const merchantId = await createMerchant(merchants);
    await merchants.client.recordEmail({
      merchantId,
      to: 'adjoua@boutique.example',
      kind: EmailKind.EMAIL_KIND_SECRET_KEY_RENEWED,
      livemode: false,
      sendAfterSeconds: 0,
    });

    const emails = await until(
      () => emailsOf(merchants, merchantId),
      (found) => found[0]?.status === EmailStatus.EMAIL_STATUS_UNSENT,
    );
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      status: EmailStatus.EMAIL_STATUS_UNSENT,
      attempts: 0,
      subject: 'Your test secret key was renewed',
    });
    expect(emails[0]?.sentAt).toBeUndefined();
  });

  it('records the email of a key renewal in the renewal itself: one for a renewal, none for a refusal', async () => {
    const merchantId = await createMerchant(merchants);
    const notifyEmail = 'owner@boutique.example';
    const { secretKey } = await merchants.client.renewSecretKey({ merchantId, livemode: false, notifyEmail });
    // Live mode is not enabled: the renewal is refused, and so is its email.
    await expect(
      merchants.client.renewSecretKey({ merchantId, livemode: true, notifyEmail }),
    ).rejects.toMatchObject({ code: 'account_not_activated' });

    const emails = await emailsOf(merchants, merchantId);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      to: notifyEmail,
      kind: EmailKind.EMAIL_KIND_SECRET_KEY_RENEWED,
      livemode: false,
    });
    expect(emails[0]?.body).not.toContain(secretKey);
  });
});
