import { sql, type Expression, type Selectable } from 'kysely';
import type { SecretBox } from '@sika/platform';
import type { Endpoint, EndpointRepository, RolledEndpoint } from '../app/ports';
import type { Scope } from '@sika/platform/pure';
import type { DB } from '../generated/database';
import type { WebhooksDatabase } from './database';

type EndpointRow = Pick<
  Selectable<DB['endpoints']>,
  'id' | 'merchant_id' | 'livemode' | 'url' | 'secret_ciphertext'
>;
const ENDPOINT_COLUMNS = ['id', 'merchant_id', 'livemode', 'url', 'secret_ciphertext'] as const;

export class SqlEndpointRepository implements EndpointRepository {
  constructor(
    private readonly db: WebhooksDatabase,
    private readonly secrets: SecretBox,
  ) {}

  async setUrl(
    scope: Scope,
    url: string | null,
    created: { id: string; secret: string },
    now: Date,
  ): Promise<Endpoint> {
    const sealed = this.secrets.seal(created.secret, created.id);
    // One statement, so two first registrations at once end as one endpoint with one secret; on conflict
    // the existing row keeps its id and secret and only the URL changes. `url_since` moves only when the
    // endpoint gains a URL it did not have: a change of URL keeps delivering without a gap.
    // A live endpoint created without a URL starts with the test endpoint's: going live (spec §1) replaces the
    // key and the webhook secret and "nothing else changes", so live events go where test events went.
    const urlParam = sql<string | null>`${url}::text`;
    const row = await this.insertEndpoint(scope, urlParam, { id: created.id, sealed }, now)
      .onConflict((oc) =>
        oc.columns(['merchant_id', 'livemode']).doUpdateSet((eb) => ({
          url: urlParam,
          url_since: eb
            .case()
            .when('endpoints.url', 'is not', null)
            .then(eb.ref('endpoints.url_since'))
            .when(urlParam, 'is', null)
            .then(null)
            .else(sql<Date>`${now}::timestamptz`)
            .end(),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirst();
    if (row === undefined) throw new Error('upserting a webhook endpoint returned no row');
    return this.toEndpoint(row);
  }

  async rollSecret(
    scope: Scope,
    created: { id: string; secret: string },
    now: Date,
    previousExpiresAt: Date | null,
  ): Promise<RolledEndpoint> {
    // The ciphertext is bound to the endpoint id, so the secret can only be sealed once the id is known:
    // create the endpoint with the new secret if there is none, else reseal for the id that exists. Ids are
    // random, so getting `created.id` back means this statement created it.
    const sealed = this.secrets.seal(created.secret, created.id);
    // Created here, a live endpoint starts with the test endpoint's URL, as in setUrl.
    const existing = await this.insertEndpoint(scope, null, { id: created.id, sealed }, now)
      .onConflict((oc) =>
        oc
          .columns(['merchant_id', 'livemode'])
          .doUpdateSet((eb) => ({ updated_at: eb.ref('excluded.updated_at') })),
      )
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirst();
    if (existing === undefined) throw new Error('upserting a webhook endpoint returned no row');
    if (existing.id === created.id) {
      return { endpoint: this.toEndpoint(existing), previousSecretExpiresAt: null };
    }
    // The replaced ciphertext moves as it is (same endpoint, same binding) in the statement that replaces it,
    // so the previous secret is always the one this roll replaced, even when two rolls race.
    const expiresAt = sql<Date | null>`${previousExpiresAt}::timestamptz`;
    const rolled = await this.db
      .updateTable('endpoints')
      .set((eb) => ({
        previous_secret_ciphertext: eb
          .case()
          .when(expiresAt, 'is', null)
          .then(null)
          .else(eb.ref('secret_ciphertext'))
          .end(),
        previous_secret_expires_at: expiresAt,
        secret_ciphertext: this.secrets.seal(created.secret, existing.id),
        updated_at: now,
      }))
      .where('id', '=', existing.id)
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirst();
    if (rolled === undefined) throw new Error('rolling a webhook secret updated no row');
    return { endpoint: this.toEndpoint(rolled), previousSecretExpiresAt: previousExpiresAt };
  }

  async find(scope: Scope): Promise<Endpoint | undefined> {
    const row = await this.db
      .selectFrom('endpoints')
      .select(ENDPOINT_COLUMNS)
      .where('merchant_id', '=', scope.merchantId)
      .where('livemode', '=', scope.livemode)
      .executeTakeFirst();
    return row === undefined ? undefined : this.toEndpoint(row);
  }

  /**
   * Inserts the scope's endpoint with `url`, or the test endpoint's URL when that is null and the scope is live;
   * `url_since` is set when it has a URL. The caller adds what a conflict with an existing endpoint does.
   */
  private insertEndpoint(
    scope: Scope,
    url: Expression<string | null> | null,
    created: { id: string; sealed: string },
    now: Date,
  ) {
    return this.db
      .with('first', (db) =>
        db.selectNoFrom((eb) => {
          const testUrl = eb
            .selectFrom('endpoints')
            .select('url')
            .where('merchant_id', '=', scope.merchantId)
            .where((sub) => sub.not(sub.ref('livemode')))
            .where(sql<boolean>`${scope.livemode}::boolean`);
          return (url === null ? testUrl : eb.fn.coalesce(url, testUrl)).as('url');
        }),
      )
      .insertInto('endpoints')
      .columns([
        'id',
        'merchant_id',
        'livemode',
        'url',
        'url_since',
        'secret_ciphertext',
        'created_at',
        'updated_at',
      ])
      .expression((db) =>
        db.selectFrom('first').select((eb) => [
          eb.val(created.id).as('id'),
          eb.val(scope.merchantId).as('merchant_id'),
          eb.val(scope.livemode).as('livemode'),
          'first.url',
          eb
            .case()
            .when('first.url', 'is', null)
            .then(null)
            .else(sql<Date>`${now}::timestamptz`)
            .end()
            .as('url_since'),
          eb.val(created.sealed).as('secret_ciphertext'),
          eb.val(now).as('created_at'),
          eb.val(now).as('updated_at'),
        ]),
      );
  }

  private toEndpoint(row: EndpointRow): Endpoint {
    return {
      id: row.id,
      scope: { merchantId: row.merchant_id, livemode: row.livemode },
      url: row.url,
      secret: this.secrets.open(row.secret_ciphertext, row.id),
    };
  }
}
