/**
 * The columns a request received from a client starts with, in `demandes` and `virements` alike: its id, the
 * client's own, the body as received and where it stands.
 */
export const CLIENT_REQUEST_COLUMNS = [
  'id',
  'client_id',
  'tx_id',
  'request',
  'statut',
  'statut_raison',
] as const;
