import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Privacy } from '../../src/model/privacy.js';
import { NEW_RESOURCE, applyPrivacy, lacksPassword } from '../../src/sharing/privacy-change.js';

const protectedOne = { privacy: Privacy.Password, password_hash: '$argon2id$stored' };

test('a password is needed when privacy becomes Password and none is given or set', () => {
  assert.equal(lacksPassword({ privacy: Privacy.Password }, NEW_RESOURCE), true);
  assert.equal(lacksPassword({ privacy: Privacy.Password, password: null }, NEW_RESOURCE), true);
  assert.equal(lacksPassword({ privacy: Privacy.Password, password: 'pw' }, NEW_RESOURCE), false);
  assert.equal(lacksPassword({ privacy: Privacy.Password }, protectedOne), false, 'one is set already');
  assert.equal(lacksPassword({}, protectedOne), false);
  assert.equal(lacksPassword({ privacy: null }, NEW_RESOURCE), false, 'empty privacy keeps the current one');
  assert.equal(lacksPassword({ privacy: Privacy.Public, password: null }, NEW_RESOURCE), false);
});

test('a password is kept while Password, replaced when given, cleared when leaving it', async () => {
  assert.deepEqual(await applyPrivacy({}, protectedOne), protectedOne);
  assert.deepEqual(await applyPrivacy({ privacy: Privacy.Private, password: 'ignored' }, protectedOne), {
    privacy: Privacy.Private,
    password_hash: null,
  });
  const replaced = await applyPrivacy({ password: 'new one' }, protectedOne);
  assert.equal(replaced.privacy, Privacy.Password);
  assert.match(replaced.password_hash ?? '', /^\$argon2id\$/);
  assert.deepEqual(
    await applyPrivacy({ password: 'ignored' }, NEW_RESOURCE),
    NEW_RESOURCE,
    'a password alone counts only with Password',
  );
  await assert.rejects(applyPrivacy({ privacy: Privacy.Password }, NEW_RESOURCE), /password is required/);
});
