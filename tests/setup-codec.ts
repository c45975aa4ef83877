// What the page loads apart, the tests load before they start: the run-link codec (src/shared/
// codec.ts), as the page does before it reads a `?run=` link; and every game day's file
// (src/scenario/catalog.ts), which the page fetches only when a link or the picker needs it, with
// the catalog and the run-link reader, which a link reads only once they are loaded (src/shared/link.ts).
// Every algorithm's rules: this runs in Node (or a worker), with no page to load them on demand.
import '../src/engine/algorithms/all';
import { loadCodec } from '../src/shared/codec';
import { loadAllScenarios } from '../src/scenario/catalog';
import { loadCatalog, loadRunReader } from '../src/shared/link';

await Promise.all([loadCodec(), loadAllScenarios(), loadCatalog(), loadRunReader()]);
