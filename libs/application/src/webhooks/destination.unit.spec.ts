import { isPublicAddress, refuseLiteralDestination, refusePrivateDestination } from './destination';

const host = (url: string) => new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');

describe('webhook destinations (decisions §9)', () => {
  it.each([
    'https://127.0.0.1/',
    'https://10.0.0.1/',
    'https://[::1]/',
    'https://[::]/',
    'https://[::127.0.0.1]/',
    'https://[::10.0.0.1]/',
    'https://[::8.8.8.8]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[0:0:0:0:0:ffff:10.0.0.1]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[2002:7f00:1::]/',
    'https://[2001::1]/',
    'https://[fe80::1]/',
    'https://[fc00::1]/',
    'https://[ff02::1]/',
    'https://[100::1]/',
  ])('refuses %s, written in any IPv4 or IPv6 form', async (url) => {
    expect(isPublicAddress(host(url))).toBe(false);
    await expect(refusePrivateDestination(url, false)).rejects.toMatchObject({ error: { code: 'validation_error' } });
    expect(() => refuseLiteralDestination(new URL(url), false)).toThrow(/non-public/);
  });

  it.each(['https://8.8.8.8/', 'https://[2606:4700:4700::1111]/', 'https://[::ffff:8.8.8.8]/'])(
    'accepts the public address %s',
    async (url) => {
      expect(isPublicAddress(host(url))).toBe(true);
      await expect(refusePrivateDestination(url, false)).resolves.toBeUndefined();
    },
  );

  it('judges names by every address they resolve to', async () => {
    await expect(
      refusePrivateDestination('https://hooks.example.com/', false, async () => ['93.184.216.34', '::7f00:1']),
    ).rejects.toBeDefined();
    await expect(
      refusePrivateDestination('https://hooks.example.com/', false, async () => ['93.184.216.34']),
    ).resolves.toBeUndefined();
    await expect(refusePrivateDestination('https://[::1]/', true)).resolves.toBeUndefined();
  });
});
