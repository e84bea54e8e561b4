import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ChangeRoleRequestDto } from './change-role-request.dto';
import { InviteMemberRequestDto } from './invite-member-request.dto';

async function invalidFields<T extends object>(type: new () => T, body: object): Promise<string[]> {
  const errors = await validate(plainToInstance(type, body), { whitelist: true });
  return errors.map((error) => error.property).sort();
}

describe('team request DTOs', () => {
  it('invites admins and members by email, never owners', async () => {
    expect(await invalidFields(InviteMemberRequestDto, { email: 'ada@example.com', role: 'admin' })).toEqual([]);
    expect(await invalidFields(InviteMemberRequestDto, { email: 'ada@example.com', name: 'Ada', role: 'member' })).toEqual([]);
    expect(await invalidFields(InviteMemberRequestDto, { email: 'ada@example.com', role: 'owner' })).toEqual(['role']);
    expect(await invalidFields(InviteMemberRequestDto, { email: 'not-an-email', role: 'member' })).toEqual(['email']);
  });

  it('changes a role to owner, admin or member', async () => {
    expect(await invalidFields(ChangeRoleRequestDto, { role: 'owner' })).toEqual([]);
    expect(await invalidFields(ChangeRoleRequestDto, { role: 'billing' })).toEqual(['role']);
  });
});
