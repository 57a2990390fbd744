import { basicCredentials } from './basic-auth';

const basic = (text: string): string => `Basic ${Buffer.from(text).toString('base64')}`;

describe('basicCredentials', () => {
  it('decodes url-encoded client id and secret', () => {
    expect(basicCredentials(basic('sika%20client:s3cret%3Ax'))).toEqual({
      clientId: 'sika client',
      clientSecret: 's3cret:x',
    });
  });

  it('keeps a secret containing a colon when it was not encoded', () => {
    expect(basicCredentials(basic('id:a:b'))).toEqual({ clientId: 'id', clientSecret: 'a:b' });
  });

  it.each([undefined, '', 'Bearer abc', basic('no-separator'), basic('id:%E0%A4%A')])(
    'ignores %s',
    (header) => {
      expect(basicCredentials(header)).toBeUndefined();
    },
  );
});
