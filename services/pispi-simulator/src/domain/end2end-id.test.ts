import { newEnd2EndId } from './end2end-id';

describe('newEnd2EndId', () => {
  it('has the 35-character shape of the document, with the UTC time to the second', () => {
    const id = newEnd2EndId(new Date('2026-02-21T15:30:01.250Z'));
    expect(id).toMatch(/^ECISIM120260221153001[0-9A-Za-z]{14}$/);
    expect(id).toHaveLength(35);
  });

  it('is unique', () => {
    const at = new Date();
    expect(new Set(Array.from({ length: 100 }, () => newEnd2EndId(at))).size).toBe(100);
  });
});
