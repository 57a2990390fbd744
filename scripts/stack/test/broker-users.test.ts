import { provisionBrokerUsers } from '../broker-users';

describe('provisioning the broker users', () => {
  it('says what to run by hand when neither rabbitmqctl nor the management API can reach the broker', async () => {
    const lines: string[] = [];
    await provisionBrokerUsers({
      // Not this machine's broker, so rabbitmqctl is not tried; nothing listens on port 1.
      adminUrl: 'amqp://admin:secret@mq.invalid:5672',
      managementUrl: 'http://127.0.0.1:1',
      vhost: '/',
      passwordOf: () => 'never-shown',
      log: (line) => lines.push(line),
    });

    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('cannot create the RabbitMQ users sika-payments, sika-psp-connector');
    expect(lines[0]).toContain('rabbitmqctl: the broker is not on this machine');
    expect(lines[0]).toContain('management API at http://127.0.0.1:1: no answer');
    expect(lines[0]).toContain('scripts/stack/broker-definitions.ts | rabbitmqctl import_definitions');
    expect(lines[0]).not.toContain('secret');
  });
});
