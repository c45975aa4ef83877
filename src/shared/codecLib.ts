// What the run-link codec uses of fflate, and nothing more: imported on its own (codec.ts), a
// namespace import of the whole library would bring every format it knows.
export { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';
