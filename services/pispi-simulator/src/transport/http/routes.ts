import express, { Router } from 'express';

import type { Authorize } from '../../app/authorize';
import type { ConfirmVirement } from '../../app/confirm-virement';
import type { CreateDemande } from '../../app/create-demande';
import type { CreateVirement } from '../../app/create-virement';
import type { DeleteWebhook } from '../../app/delete-webhook';
import type { GetDemande } from '../../app/get-demande';
import type { GetVirement } from '../../app/get-virement';
import type { GetWebhook } from '../../app/get-webhook';
import type { IssueToken } from '../../app/issue-token';
import type { PayDemande } from '../../app/pay-demande';
import type { RegisterWebhook } from '../../app/register-webhook';
import type { ReturnFunds } from '../../app/return-funds';
import { toConsultationReponse } from '../../domain/demande';
import { basicCredentials } from './basic-auth';

export interface SimulatorUseCases {
  issueToken: IssueToken;
  authorize: Authorize;
  registerWebhook: RegisterWebhook;
  getWebhook: GetWebhook;
  deleteWebhook: DeleteWebhook;
  createDemande: CreateDemande;
  getDemande: GetDemande;
  payDemande: PayDemande;
  returnFunds: ReturnFunds;
  createVirement: CreateVirement;
  getVirement: GetVirement;
  confirmVirement: ConfirmVirement;
}

/** The token endpoint (the security scheme's tokenUrl) and the API Business subset, at the server root. */
export function simulatorRoutes(useCases: SimulatorUseCases): Router {
  const router = Router();
  const { authorize } = useCases;

  router.post('/oauth/token', express.urlencoded({ extended: false, limit: '10kb' }), (request, response) => {
    const token = useCases.issueToken.execute({
      basic: basicCredentials(request.get('authorization')),
      form: request.body,
    });
    response.set('cache-control', 'no-store').json(token);
  });

  router.post('/webhooks', async (request, response) => {
    const clientId = authorize.check(request.get('authorization'), 'webhook.write');
    response.status(201).json(await useCases.registerWebhook.execute(clientId, request.body));
  });

  router.get('/webhooks/:id', async (request, response) => {
    const clientId = authorize.check(request.get('authorization'), 'webhook.read');
    response.json(await useCases.getWebhook.execute(clientId, request.params.id));
  });

  router.delete('/webhooks/:id', async (request, response) => {
    const clientId = authorize.check(request.get('authorization'), 'webhook.delete');
    await useCases.deleteWebhook.execute(clientId, request.params.id);
    response.status(204).end();
  });

  router.post('/demandes-paiements', async (request, response) => {
    const clientId = authorize.check(request.get('authorization'), 'demande_paiement.write');
    response.status(200).json(await useCases.createDemande.execute(clientId, request.body));
  });

  router.get('/demandes-paiements/:txId', async (request, response) => {
    const clientId = authorize.check(request.get('authorization'), 'demande_paiement.read');
    response.json(await useCases.getDemande.execute(clientId, request.params.txId));
  });

  router.post('/paiements', async (request, response) => {
    const clientId = authorize.check(request.get('authorization'), 'paiement.write');
    response.status(200).json(await useCases.createVirement.execute(clientId, request.body));
  });

  router.get('/paiements/:txId', async (request, response) => {
    const clientId = authorize.check(request.get('authorization'), 'paiement.read');
    response.json(await useCases.getVirement.execute(clientId, request.params.txId));
  });

  router.put('/paiements/:txId/confirmations', async (request, response) => {
    const clientId = authorize.check(request.get('authorization'), 'paiement.write');
    const answer = await useCases.confirmVirement.execute(clientId, request.params.txId, request.body);
    if (answer === null) response.status(204).end();
    else response.json(answer);
  });

  router.put('/paiements/:end2endId/retours', async (request, response) => {
    const clientId = authorize.check(request.get('authorization'), 'retour_fonds.write');
    response.json(await useCases.returnFunds.execute(clientId, request.params.end2endId));
  });

  // Not the API Business: the simulated customer paying from their banking app (alias …04, at delivery).
  // Unauthenticated like a customer's tap, and only ever served by test mode's simulator.
  router.post('/simulator/demandes-paiements/:txId/paiement', async (request, response) => {
    response.json(toConsultationReponse(await useCases.payDemande.execute(request.params.txId)));
  });

  return router;
}
