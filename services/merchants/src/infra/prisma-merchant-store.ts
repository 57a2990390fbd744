import type { Activation as ActivationRow, Merchant, Prisma, PrismaClient } from '../generated/prisma/client';
import type { EmailRecord } from '../app/email-outbox';
import type { ActiveKey, KeyOwner, MerchantRecord, MerchantStore } from '../app/ports';
import type { Activation, ActivationDetails } from '../domain/activation';
import type { SecretKeyRecord } from '../domain/secret-key';

type Transaction = Prisma.TransactionClient;

function toActivation(row: ActivationRow): Activation {
  return {
    // The only two values this store writes.
    status: row.status === 'approved' ? 'approved' : 'pending_review',
    details: {
      legalName: row.legalName,
      registrationNumber: row.registrationNumber,
      contactName: row.contactName,
      contactEmail: row.contactEmail,
      contactPhone: row.contactPhone,
    },
    requestedAt: row.requestedAt,
    approvedAt: row.approvedAt,
  };
}

function toMerchantRecord(row: Merchant & { activation: ActivationRow | null }): MerchantRecord {
  return {
    id: row.id,
    name: row.name,
    feeRule: { rateBps: row.feeRateBps, fixedAmount: row.feeFixedAmount },
    liveEnabled: row.liveEnabled,
    createdAt: row.createdAt,
    activation: row.activation === null ? undefined : toActivation(row.activation),
  };
}

const WITH_ACTIVATION = { activation: true } as const;

/**
 * Locks the merchant row for the rest of the transaction: concurrent writes about one merchant (key
 * renewals, activation) queue instead of reading each other's stale state. Undefined when it does not exist.
 */
async function lockMerchant(
  tx: Transaction,
  merchantId: string,
): Promise<{ liveEnabled: boolean } | undefined> {
  const [locked] = await tx.$queryRaw<
    { live_enabled: boolean }[]
  >`SELECT live_enabled FROM merchants WHERE id = ${merchantId} FOR UPDATE`;
  return locked === undefined ? undefined : { liveEnabled: locked.live_enabled };
}

/** The merchants schema through Prisma. The fee rule takes the column defaults (1 %, no fixed part). */
export class PrismaMerchantStore implements MerchantStore {
  constructor(private readonly prisma: PrismaClient) {}

  async createWithKey(
    merchant: { id: string; name: string; createdAt: Date },
    key: SecretKeyRecord,
  ): Promise<MerchantRecord> {
    const row = await this.prisma.merchant.create({
      data: { ...merchant, secretKeys: { create: key } },
      include: WITH_ACTIVATION,
    });
    return toMerchantRecord(row);
  }

  async replaceActiveKey(
    merchantId: string,
    key: SecretKeyRecord,
    previousExpiresAt: Date | null,
    email?: EmailRecord,
  ): Promise<'replaced' | 'missing' | 'live_disabled'> {
    return this.prisma.$transaction(async (tx) => {
      // The lock also queues concurrent renewals of the same merchant, so each one revokes the key issued by
      // the one before it instead of tripping over the one-active-key index.
      const locked = await lockMerchant(tx, merchantId);
      if (locked === undefined) return 'missing';
      if (key.livemode && !locked.liveEnabled) return 'live_disabled';
      // A key replaced earlier and still overlapping stops now: at most one previous key works at a time.
      await tx.secretKey.updateMany({
        where: { merchantId, livemode: key.livemode, revokedAt: { gt: key.createdAt } },
        data: { revokedAt: key.createdAt },
      });
      await tx.secretKey.updateMany({
        where: { merchantId, livemode: key.livemode, revokedAt: null },
        data: { revokedAt: previousExpiresAt ?? key.createdAt },
      });
      await tx.secretKey.create({ data: { ...key, merchantId } });
      if (email !== undefined) await tx.email.create({ data: email });
      return 'replaced';
    });
  }

  async listActiveKeys(merchantId: string, now: Date): Promise<ActiveKey[] | undefined> {
    const merchant = await this.prisma.merchant.findUnique({
      where: { id: merchantId },
      select: {
        secretKeys: {
          where: { OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] },
          select: { livemode: true, suffix: true, createdAt: true, revokedAt: true },
          orderBy: [{ livemode: 'asc' }, { createdAt: 'desc' }],
        },
      },
    });
    return merchant?.secretKeys.map(({ livemode, suffix, createdAt, revokedAt }) => ({
      livemode,
      lastFour: suffix,
      createdAt,
      ...(revokedAt !== null && { expiresAt: revokedAt }),
    }));
  }

  async requestActivation(
    merchantId: string,
    details: ActivationDetails,
    requestedAt: Date,
  ): Promise<MerchantRecord | 'missing' | 'already_approved'> {
    return this.prisma.$transaction(async (tx) => {
      if ((await lockMerchant(tx, merchantId)) === undefined) return 'missing';
      const current = await tx.activation.findUnique({ where: { merchantId }, select: { status: true } });
      if (current?.status === 'approved') return 'already_approved';
      const pending = { ...details, status: 'pending_review', requestedAt, approvedAt: null };
      const row = await tx.merchant.update({
        where: { id: merchantId },
        data: { activation: { upsert: { create: pending, update: pending } } },
        include: WITH_ACTIVATION,
      });
      return toMerchantRecord(row);
    });
  }

  async approveActivation(
    merchantId: string,
    approvedAt: Date,
  ): Promise<MerchantRecord | 'missing' | 'not_requested'> {
    return this.prisma.$transaction(async (tx) => {
      if ((await lockMerchant(tx, merchantId)) === undefined) return 'missing';
      const current = await tx.activation.findUnique({ where: { merchantId }, select: { status: true } });
      if (current === null) return 'not_requested';
      const row = await tx.merchant.update({
        where: { id: merchantId },
        // Enabling again is harmless and makes an approval always end with live mode open; the first
        // approval's time is kept.
        data: {
          liveEnabled: true,
          ...(current.status === 'approved'
            ? {}
            : { activation: { update: { status: 'approved', approvedAt } } }),
        },
        include: WITH_ACTIVATION,
      });
      return toMerchantRecord(row);
    });
  }

  async findActiveKeyOwner(hash: string, now: Date): Promise<KeyOwner | undefined> {
    const key = await this.prisma.secretKey.findUnique({
      where: { hash },
      select: {
        merchantId: true,
        livemode: true,
        revokedAt: true,
        merchant: { select: { liveEnabled: true } },
      },
    });
    if (key === null || (key.revokedAt !== null && key.revokedAt <= now)) return undefined;
    return { merchantId: key.merchantId, livemode: key.livemode, liveEnabled: key.merchant.liveEnabled };
  }

  async findMerchant(id: string): Promise<MerchantRecord | undefined> {
    const row = await this.prisma.merchant.findUnique({ where: { id }, include: WITH_ACTIVATION });
    return row === null ? undefined : toMerchantRecord(row);
  }
}
