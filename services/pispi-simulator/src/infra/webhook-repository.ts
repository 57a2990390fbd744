import type { WebhookRepository, WebhookRow } from '../app/ports';
import type { SimulatorPrismaClient } from './prisma-client';

const COLUMNS = {
  id: true,
  clientId: true,
  callbackUrl: true,
  alias: true,
  events: true,
  secret: true,
  createdAt: true,
} as const;

export class PrismaWebhookRepository implements WebhookRepository {
  constructor(private readonly prisma: SimulatorPrismaClient) {}

  async insert(webhook: WebhookRow): Promise<void> {
    await this.prisma.webhook.create({ data: webhook });
  }

  find(clientId: string, id: string): Promise<WebhookRow | null> {
    return this.prisma.webhook.findFirst({ where: { id, clientId, deletedAt: null }, select: COLUMNS });
  }

  async delete(clientId: string, id: string, at: Date): Promise<boolean> {
    const { count } = await this.prisma.webhook.updateMany({
      where: { id, clientId, deletedAt: null },
      data: { deletedAt: at },
    });
    return count === 1;
  }
}
