// The game day a lab is running, if any, for the controls that describe the run (a shared link's step).
import { createContext, useContext } from 'react';
import type { GuidedStore } from '../../store/guidedStore';

export const GuidedContext = createContext<GuidedStore | null>(null);

export function useGuided(): GuidedStore | null {
  return useContext(GuidedContext);
}
