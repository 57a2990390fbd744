import type { webhooksV1 } from '@sika/contracts';
import type { GrpcCallers } from '@sika/platform';

/**
 * Who may call each method (mutual TLS identities; anyone else gets PERMISSION_DENIED). Endpoints, their
 * secrets and the events are the merchant's, read and changed from the dashboard, the events also read through the
 * public API (GET /v1/events); an operator (CLI) may set
 * an endpoint when creating a merchant, and audits.
 */
export const WEBHOOKS_CALLERS = {
  setEndpoint: ['dashboard-web', 'cli'],
  getEndpoint: ['dashboard-web'],
  rollEndpointSecret: ['dashboard-web'],
  listEvents: ['dashboard-web', 'gateway'],
  getEvent: ['dashboard-web', 'gateway'],
  resendEvent: ['dashboard-web'],
  sendTestEvent: ['dashboard-web'],
  auditEvents: ['cli'],
} as const satisfies GrpcCallers<webhooksV1.WebhooksServiceServer>;
