import type { EmailOutbox } from './email-outbox';

/** Withdraws an email that has not left: the change it announced was refused. A repeat changes nothing. */
export class CancelEmail {
  constructor(private readonly dependencies: { outbox: EmailOutbox }) {}

  async execute({ emailId }: { emailId: string }): Promise<void> {
    await this.dependencies.outbox.cancel(emailId);
  }
}
