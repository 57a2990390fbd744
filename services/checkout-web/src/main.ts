import { runService } from '@sika/platform';
import { composeCheckout } from './compose';
import { configSchema } from './config';

runService('checkout-web', configSchema, (config) => composeCheckout(config));
