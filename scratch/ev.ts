import { testApp } from '../test/helpers/app.js';
const t = await testApp();
console.log(Object.keys(t));
