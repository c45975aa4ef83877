// What the page loads apart, the tests load before they start: the run-link codec (src/shared/
// codec.ts), as the page does before it reads a `?run=` link; and every game day's file
// (src/scenario/catalog.ts), which the page fetches only when a link or the picker needs it.
import { loadCodec } from '../src/shared/codec';
import { loadAllScenarios } from '../src/scenario/catalog';

await Promise.all([loadCodec(), loadAllScenarios()]);
