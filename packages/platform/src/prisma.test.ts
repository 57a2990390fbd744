import { createPrismaClient } from './prisma';

describe('createPrismaClient', () => {
  it("asks for Prisma's minimal error format, which leaves the calling source lines out of messages", () => {
    class OptionsHolder {
      constructor(readonly options: { errorFormat: string }) {}
    }

    const client = createPrismaClient(OptionsHolder, {
      url: 'postgresql://127.0.0.1/sika',
      schema: 'payments',
    });

    expect(client.options.errorFormat).toBe('minimal');
  });
});
