export * from './format';
export * from './html';
export * from './html-document';
export * from './html-response';
export * from './language';
export * from './same-origin';
export * from './static-assets';
