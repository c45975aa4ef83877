// The run-link codec loads apart in the page (src/app/codec.ts); the tests that read and write
// run links load it before they start, as the page does before it reads a `?run=` link.
import { loadCodec } from '../src/shared/codec';

await loadCodec();
