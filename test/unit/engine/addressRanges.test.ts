import { describe, expect, it } from 'vitest'
import {
  addressDenied,
  isLocalSite,
  isMetadataAddress,
  isPrivateAddress,
} from '../../../src/main/engine/destination'

describe('which addresses a public site may not lead to', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['0.0.0.0', 'this host'],
    ['10.1.2.3', 'RFC 1918'],
    ['192.168.1.1', 'RFC 1918'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT (VPN meshes)'],
    ['100.127.255.254', 'carrier-grade NAT, top'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.1', 'benchmarking, top'],
    ['::1', 'IPv6 loopback'],
    ['fd12::1', 'unique local'],
    ['fe80::1', 'IPv6 link-local'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::a00:1', 'IPv4-compatible 10.0.0.1'],
    ['64:ff9b::127.0.0.1', 'NAT64 of loopback'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo client 127.0.0.1'],
    ['[::1]', 'bracketed'],
  ])('%s (%s) is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true)
  })

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.1',
    '2606:4700::1111',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false)
  })

  it('is false for text that is no IP', () => {
    expect(isPrivateAddress('example.com')).toBe(false)
  })

  it.each([
    '169.254.169.254',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '::169.254.169.254',
    '2002:a9fe:a9fe::1',
    'fd00:ec2::254',
    '[fd00:ec2:0:0:0:0:0:254]',
  ])('%s reaches a cloud metadata service', (address) => {
    expect(isMetadataAddress(address)).toBe(true)
  })

  it('a site on a VPN mesh address is a local site; a NAT64 name of loopback is refused', async () => {
    expect(isLocalSite('100.101.102.103:8080')).toBe(true)
    const lookup = async () => [{ address: '64:ff9b::7f00:1', family: 6 }]
    expect(await addressDenied('https://public.example/x', 'public.example', lookup)).toMatch(
      /private or loopback/,
    )
  })
})
