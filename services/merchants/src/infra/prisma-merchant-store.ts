import type { PrismaClient } from '../generated/prisma/client';
import type { Merchant } from '../generated/prisma/client';
import type { KeyOwner, MerchantRecord, MerchantStore } from '../app/ports';
import type { SecretKeyRecord } from '../domain/secret-key';

function toMerchantRecord(row: Merchant): MerchantRecord {
  return {
    id: row.id,
    name: row.name,
    feeRule: { rateBps: row.feeRateBps, fixedAmount: row.feeFixedAmount },
    liveEnabled: row.liveEnabled,
    createdAt: row.createdAt,
  };
}

/** The merchants schema through Prisma. The fee rule takes the column defaults (1 %, no fixed part). */
export class PrismaMerchantStore implements MerchantStore {
  constructor(private readonly prisma: PrismaClient) {}

  async createWithKey(
    merchant: { id: string; name: string; createdAt: Date },
    key: SecretKeyRecord,
  ): Promise<MerchantRecord> {
    const row = await this.prisma.merchant.create({ data: { ...merchant, secretKeys: { create: key } } });
    return toMerchantRecord(row);
  }

  async replaceActiveKey(merchantId: string, key: SecretKeyRecord): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      // Locking the merchant row queues concurrent renewals of the same merchant, so each one revokes the
      // key issued by the one before it instead of tripping over the one-active-key index.
      const locked = await tx.$queryRaw<
        { id: string }[]
      >`SELECT id FROM merchants WHERE id = ${merchantId} FOR UPDATE`;
      if (locked.length === 0) return false;
      await tx.secretKey.updateMany({
        where: { merchantId, livemode: key.livemode, revokedAt: null },
        data: { revokedAt: key.createdAt },
      });
      await tx.secretKey.create({ data: { ...key, merchantId } });
      if (key.livemode) await tx.merchant.update({ where: { id: merchantId }, data: { liveEnabled: true } });
      return true;
    });
  }

  async findActiveKeyOwner(hash: string): Promise<KeyOwner | undefined> {
    const key = await this.prisma.secretKey.findUnique({
      where: { hash },
      select: {
        merchantId: true,
        livemode: true,
        revokedAt: true,
        merchant: { select: { liveEnabled: true } },
      },
    });
    if (key === null || key.revokedAt !== null) return undefined;
    return { merchantId: key.merchantId, livemode: key.livemode, liveEnabled: key.merchant.liveEnabled };
  }

  async findMerchant(id: string): Promise<MerchantRecord | undefined> {
    const row = await this.prisma.merchant.findUnique({ where: { id } });
    return row === null ? undefined : toMerchantRecord(row);
  }
}
