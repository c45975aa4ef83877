// Only what the run-link codec uses of fflate: a namespace import would bring every format it knows.
export { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';
