/** The three servers every Sika test may need, with how to find each and what to do when it is missing. */
export type InfraKind = 'postgres' | 'rabbitmq' | 'redis';

export interface InfraService {
  kind: InfraKind;
  label: string;
  /** Variable that, when set, is used as is: CI and developers point tests at any server with it. */
  envVar: 'DATABASE_URL' | 'AMQP_URL' | 'REDIS_URL';
  localPort: number;
  /** URL of a server installed with its distribution defaults on this machine. */
  localUrl: string;
  /** Shell commands that install and start the server on Debian/Ubuntu, quoted in the failure message. */
  installCommand: string;
}

export const LOCAL_HOST = '127.0.0.1';

export const INFRA_SERVICES: Readonly<Record<InfraKind, InfraService>> = {
  postgres: {
    kind: 'postgres',
    label: 'PostgreSQL',
    envVar: 'DATABASE_URL',
    localPort: 5432,
    localUrl: `postgres://postgres@${LOCAL_HOST}:5432/postgres`,
    installCommand:
      'apt-get install -y postgresql && service postgresql start ' +
      '(and let user postgres connect to 127.0.0.1 without a password, or put the password in DATABASE_URL)',
  },
  rabbitmq: {
    kind: 'rabbitmq',
    label: 'RabbitMQ',
    envVar: 'AMQP_URL',
    localPort: 5672,
    localUrl: `amqp://guest:guest@${LOCAL_HOST}:5672`,
    installCommand: 'apt-get install -y rabbitmq-server && service rabbitmq-server start',
  },
  redis: {
    kind: 'redis',
    label: 'Redis',
    envVar: 'REDIS_URL',
    localPort: 6379,
    localUrl: `redis://${LOCAL_HOST}:6379`,
    installCommand: 'apt-get install -y redis-server && service redis-server start',
  },
};
