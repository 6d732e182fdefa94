import { newJob } from './src/env/world';
import { Draft } from './src/env/mut';
console.log(newJob.toString());
console.log(Draft.prototype['entity' as keyof Draft].toString());
