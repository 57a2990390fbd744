import { stopStartedContainers } from './containers';

/** Jest globalTeardown: stops the containers globalSetup started (servers found elsewhere are left alone). */
export default async function globalTeardown(): Promise<void> {
  await stopStartedContainers();
}
