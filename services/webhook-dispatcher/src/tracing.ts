import { startTracing } from '@sika/platform/tracing';

/** Imported first by main.ts, so that the SDK starts before the modules it instruments are loaded. */
startTracing('webhook-dispatcher');
