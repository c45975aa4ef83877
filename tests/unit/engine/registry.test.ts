// The registry of algorithms: each kind described in info.ts has its rules under its own kind,
// both where Node loads every one at once (all.ts) and where the page loads one when a run needs
// it (loadAlgorithm), and the rules carry the description they were registered with.
import { describe, expect, it } from 'vitest';
import { ALGORITHM_KINDS, algorithmFor } from '../../../src/engine';
import { loadAlgorithm, rulesFor } from '../../../src/engine/algorithms/index';
import { serviceEndpoints } from '../../../src/engine/core';

describe('the algorithm registry', () => {
  it.each(ALGORITHM_KINDS)(
    '%s: its rules are registered under its kind, with its description',
    async (kind) => {
      await loadAlgorithm(kind);
      const rules = rulesFor(kind);
      expect(rules.kind).toBe(kind);
      expect(rules.title).toBe(algorithmFor(kind).title);
      expect(rules.messages).toEqual(algorithmFor(kind).messages);
    },
  );
});

describe('service endpoints', () => {
  it('come from each algorithm\u2019s declared services: Pacemaker\u2019s cluster managers stand where Redis\u2019s sentinels do', () => {
    // redisSentinel.ts runs both algorithms' observers on the same endpoints.
    expect(serviceEndpoints(algorithmFor('pacemaker').services, 'clusterManager')).toEqual(
      serviceEndpoints(algorithmFor('redis-sentinel').services, 'sentinel'),
    );
    // Endpoints follow storage's -1 in the order the services are declared.
    expect(serviceEndpoints(algorithmFor('k8s-lease').services, 'apiServer')).toEqual([-2]);
    expect(serviceEndpoints(algorithmFor('k8s-lease').services, 'storeMember')).toEqual([-3, -4, -5]);
  });
});
