import { DashboardServer } from './support/dashboard-server';

jest.setTimeout(60_000);

/** French, the dashboard's default language: the one message for a field with a control character. */
const CONTROL_CHARACTER_REFUSAL = 'Ce champ contient un caractère de contrôle';

let server: DashboardServer;

beforeAll(async () => {
  server = await DashboardServer.start('forms');
});
afterAll(() => server?.close());

const SIGN_UP = {
  business_name: 'Boutique Awa',
  email: 'awa@boutique.example',
  password: 'wax fabric in Treichville',
};

describe('form fields with control characters', () => {
  it.each([
    ['email', 'awa\u0000@boutique.example'],
    ['email', 'awa@boutique.example\u001b'],
    ['business_name', 'Boutique\u0000Awa'],
    ['password', 'wax fabric\u0000in Treichville'],
  ])('refuses sign-up with %s %j: 400 on the form, naming the field', async (field, value) => {
    const page = await server.browser().submit('/signup', '/signup', { ...SIGN_UP, [field]: value });
    expect(page.status).toBe(400);
    expect(page.html).toContain(CONTROL_CHARACTER_REFUSAL);
    expect(page.html).toContain(`id="${field}-problem"`);
  });

  it.each([
    ['email', 'owner\u0000@boutique.example'],
    ['password', 'secret\u0007password'],
  ])('refuses sign-in with %s %j: 400 on the form', async (field, value) => {
    const fields = { email: 'owner@boutique.example', password: 'any password at all', [field]: value };
    const page = await server.browser().submit('/signin', '/signin', fields);
    expect(page.status).toBe(400);
    expect(page.html).toContain(CONTROL_CHARACTER_REFUSAL);
  });
});
