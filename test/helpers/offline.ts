// Analyser hooks for tests that send arbitrary URLs: every name resolves to loopback and any
// connection to a non-loopback address is vetoed, so nothing ever leaves this machine.
import type { AppOptions } from '../../src/app.js';

export const offlineAnalysis: Pick<AppOptions, 'analysisHooks'> = {
  analysisHooks: {
    resolver: async () => [{ address: '127.0.0.1', family: 4 }],
    guard: {
      beforeConnect(address) {
        if (!/^127\./.test(address) && address !== '::1') throw new Error(`test veto: ${address} is not loopback`);
      },
    },
  },
};
