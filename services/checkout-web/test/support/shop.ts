import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Shop {
  baseUrl: string;
  returnUrl: string;
  cancelUrl: string;
  /** Paths the browser came back to, in order. */
  visits: string[];
  close(): Promise<void>;
}

/** The merchant's site: the pages behind return_url and cancel_url, recording who came back where. */
export async function startShop(): Promise<Shop> {
  const visits: string[] = [];
  const server = createServer((request, response) => {
    visits.push(request.url ?? '');
    const title = request.url?.startsWith('/cancel') ? 'Commande abandonnée' : 'Merci pour votre commande';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!DOCTYPE html><html lang="fr"><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    returnUrl: `${baseUrl}/return?order=1042`,
    cancelUrl: `${baseUrl}/cancel?order=1042`,
    visits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
