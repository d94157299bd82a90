// Response serializers, compiled once per distinct schema. Fastify compiles one fast-json-stringify
// function per route and status at start-up; most of ours share a few schemas (every route's 401,
// 404 and 422 answer the one error body), and compiling them again was most of an app's start-up
// (0.7 s of CPU of ~1 s). The functions are pure, so one compiled for a schema serves every route
// and every app of the process that uses the same schema with the same shared schemas.
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Serializer = ReturnType<ReturnType<SerializerFactory>>;

const compiled = new Map<string, Serializer>();
const selector = SerializerSelector();

/** Fastify's default serializer factory with a process-wide cache in front of it. */
export const cachedSerializerFactory: SerializerFactory = (externalSchemas, serializerOpts) => {
  const compile = selector(externalSchemas, serializerOpts);
  const shared = JSON.stringify([externalSchemas ?? null, serializerOpts ?? null]);
  return (route) => {
    const key = `${shared}\n${JSON.stringify(route.schema)}`;
    let serialize = compiled.get(key);
    if (serialize === undefined) {
      serialize = compile(route);
      compiled.set(key, serialize);
    }
    return serialize;
  };
};
