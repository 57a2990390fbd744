export * from './gen';
export * from './events';
