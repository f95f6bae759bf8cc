#!/usr/bin/env node
// The `lev-api` command. The source is TypeScript, run through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
