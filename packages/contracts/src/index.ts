export * from './gen';
