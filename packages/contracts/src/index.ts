export * from './gen';
export * from './events';
export * from './limits';
