import infrastructureTeardown from '../../packages/testing/src/jest-global-teardown';
import { stopStack } from './stack-handle';

export default async function globalTeardown(): Promise<void> {
  await stopStack();
  await infrastructureTeardown();
}
