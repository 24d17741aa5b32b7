use super::*;
use std::collections::HashSet;

fn all_with_candidates() -> Vec<GemmKernel> {
    let mut v = GemmKernel::all();
    for family in GemmFamily::ALL {
        for arch in ["sm_90", "gfx90a", "gfx942"] {
            for c in GemmConfig::candidates(family, arch) {
                v.push(GemmKernel::new(family, c).unwrap());
            }
        }
    }
    v
}

#[test]
fn names_unique_and_carry_parameters() {
    let mut seen = HashSet::new();
    let mut modules = HashSet::new();
    for k in all_with_candidates() {
        modules.insert(k.module_name());
        for (a, b) in k.transposes() {
            let n = k.kernel_name(a, b);
            seen.insert(n.clone());
            assert!(n.starts_with(&format!("gemm_{}_{}{}_mt", k.family.tag(), a.tag(), b.tag())), "{n}");
            assert!(n.ends_with(&k.config.tag()), "{n}");
            assert!(n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{n}");
        }
    }
    // Distinct (family, config) pairs give distinct modules.
    let pairs: HashSet<_> = all_with_candidates().into_iter().map(|k| (k.family, k.config)).collect();
    assert_eq!(pairs.len(), modules.len());
    assert_eq!(
        GemmKernel::fallback(GemmFamily::Hss, GemmVariant::Mma).unwrap().kernel_name(Trans::N, Trans::T),
        "gemm_hss_nt_mt128x128x32_w2x2_s4_x_g8_o1_mma16x8x16f16"
    );
    assert_eq!(
        GemmKernel::fallback(GemmFamily::S, GemmVariant::Fma).unwrap().kernel_name(Trans::C, Trans::N),
        "gemm_s_tn_mt64x64x16_t16x16_s1_p4x4_g1_o1_fma"
    );
    assert_eq!(
        GemmKernel::fallback(GemmFamily::C, GemmVariant::Fma).unwrap().kernel_name(Trans::C, Trans::N),
        "gemm_c_cn_mt64x64x16_t16x16_s1_p4x4_g1_o1_fma"
    );
    let pa = GemmKernel::fallback(GemmFamily::D, GemmVariant::Mma).unwrap().with_batch(BatchForm::Pointers);
    assert!(pa.kernel_name(Trans::N, Trans::N).ends_with("_pa") && pa.module_name().ends_with("_pa"));
    assert!(pa.source().contains("RM_GEMM_KERNEL_PA("));
}

#[test]
fn tags_round_trip() {
    for k in all_with_candidates() {
        let tag = k.config.tag();
        assert_eq!(GemmConfig::parse(&tag).unwrap(), k.config, "{tag}");
    }
    for bad in ["", "mt1x2x3", "mt128x128x32_w2x2_s4_x_g8_o1_nope", "mt128x128_w2x2_s4_x_g8_o1_fma", "mt1x1x1_w1x1_s1_p1x1_g1_o1_fma"] {
        assert!(GemmConfig::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn fallback_counts() {
    let all = GemmKernel::all();
    let count = |v| all.iter().filter(|k| k.variant() == v).count();
    assert_eq!(count(GemmVariant::Fma), 11);
    // 8 portable ones, plus f64's and complex f64's sm_90 DMMA m16n8k16.
    assert_eq!(count(GemmVariant::Mma), 10);
    // (one a family but c, i8)
    assert_eq!(count(GemmVariant::Mfma), 9);
}

#[test]
fn invalid_configs_rejected_with_reason() {
    for (f, v) in [
        (GemmFamily::S, GemmVariant::Mma),
        (GemmFamily::C, GemmVariant::Mma),
        (GemmFamily::Z, GemmVariant::Mma),
        (GemmFamily::C, GemmVariant::Mfma),
    ] {
        assert!(!GemmKernel::fallback(f, v).unwrap_err().is_empty());
    }
    let base = GemmConfig::fallback(GemmFamily::H, GemmVariant::Mma).unwrap();
    let reg = GemmConfig::fallback(GemmFamily::H, GemmVariant::Mfma).unwrap();
    let cases: Vec<(GemmConfig, GemmFamily, &str)> = vec![
        (GemmConfig { mt: [96, 128, 32], ..reg }, GemmFamily::H, "multiple of the atom"),
        (reg, GemmFamily::Bss, "inputs"),
        (GemmConfig { lds: LdsLayout::Pad { a: 3, b: 8 }, stages: 1, ..base }, GemmFamily::H, "vector"),
        (GemmConfig { lds: LdsLayout::Xor, stages: 1, ..base }, GemmFamily::H, "direct path"),
        (GemmConfig { lds: LdsLayout::Pad { a: 4, b: 8 }, ..base }, GemmFamily::H, "16-byte aligned"),
        (GemmConfig { mt: [96, 64, 32], waves: [2, 2], ..base }, GemmFamily::H, "power-of-two"),
        (GemmConfig { mt: [256, 256, 32], ..base }, GemmFamily::H, "accumulator registers"),
        (GemmConfig { mt: [128, 128, 64], stages: 8, waves: [2, 4], ..base }, GemmFamily::H, "LDS"),
        (GemmConfig { stages: 0, ..base }, GemmFamily::H, "stages"),
        (GemmConfig { group_m: 0, ..base }, GemmFamily::H, "group_m"),
        (GemmConfig { atom: Atom::Fma, waves: [16, 16], mt: [64, 64, 16], ..base }, GemmFamily::H, "raw elements"),
        (GemmConfig { persistent: true, ..reg }, GemmFamily::H, "direct path's stages"),
        (GemmConfig { persistent: true, ..GemmConfig::fallback(GemmFamily::H, GemmVariant::Wgmma).unwrap() }, GemmFamily::H, "persistent by construction"),
    ];
    for (cfg, fam, why) in cases {
        let e = cfg.validate(fam).expect_err(&cfg.tag());
        assert!(e.contains(why), "{}: `{e}` should mention `{why}`", cfg.tag());
    }
}

#[test]
fn select_picks_best_fallback() {
    use GemmFamily as F;
    let sel = |f, a| GemmKernel::select(f, a).variant();
    assert_eq!(sel(F::Hss, "sm_90"), GemmVariant::Wgmma);
    assert_eq!(sel(F::Hss, "sm_90a"), GemmVariant::Wgmma);
    assert_eq!(sel(F::Bss, "sm_90"), GemmVariant::Wgmma);
    // wgmma is sm_90a-only: later majors get mma.sync.
    assert_eq!(sel(F::Hss, "sm_100"), GemmVariant::Mma);
    assert_eq!(sel(F::Bbs, "sm_80"), GemmVariant::Mma);
    assert_eq!(sel(F::D, "sm_90"), GemmVariant::Mma);
    // f64 on sm_90 gets Hopper's m16n8k16 DMMA shape; it exists there only.
    assert_eq!(GemmKernel::select(F::D, "sm_90").config.atom, Atom::MmaM16n8k16F64);
    assert_eq!(GemmKernel::select(F::D, "sm_80").config.atom, Atom::MmaM8n8k4F64);
    assert_eq!(GemmKernel::select(F::D, "sm_100").config.atom, Atom::MmaM8n8k4F64);
    let dmma = GemmKernel::select(F::D, "sm_90");
    assert!(dmma.supports_arch("sm_90") && !dmma.supports_arch("sm_80") && !dmma.supports_arch("sm_100"));
    assert!(dmma.source().contains("RM_SM != 900") && GemmKernel::all().contains(&dmma));
    assert_eq!(sel(F::Hss, "sm_75"), GemmVariant::Fma);
    assert_eq!(sel(F::S, "sm_90"), GemmVariant::Fma);
    // complex f64 on sm_90: the DMMA as 2 x 2 real blocks; elsewhere the FMA atom.
    assert_eq!(GemmKernel::select(F::Z, "sm_90").config.atom, Atom::MmaM16n8k8Z);
    assert_eq!(sel(F::Z, "sm_80"), GemmVariant::Fma);
    assert_eq!(GemmKernel::select(F::Z, "gfx942").config.atom, Atom::MfmaF64_16x16x4Z);
    assert_eq!(sel(F::C, "sm_90"), GemmVariant::Fma);
    assert_eq!(sel(F::H, "gfx942"), GemmVariant::Mfma);
    assert_eq!(sel(F::S, "gfx90a:sramecc+:xnack-"), GemmVariant::Mfma);
    assert_eq!(sel(F::D, "gfx90a"), GemmVariant::Mfma);
    assert_eq!(sel(F::C, "gfx942"), GemmVariant::Fma);
    assert_eq!(sel(F::H, "gfx1100"), GemmVariant::Fma);
    assert_eq!(sel(F::H, "gfx908"), GemmVariant::Fma);
    assert_eq!(sel(F::H, "nonsense"), GemmVariant::Fma);
}

#[test]
fn supports_arch() {
    let mma = GemmKernel::fallback(GemmFamily::H, GemmVariant::Mma).unwrap();
    assert!(mma.supports_arch("sm_80") && mma.supports_arch("sm_90") && !mma.supports_arch("sm_75"));
    assert!(!mma.supports_arch("gfx942"));
    let mfma = GemmKernel::fallback(GemmFamily::H, GemmVariant::Mfma).unwrap();
    assert!(mfma.supports_arch("gfx90a") && mfma.supports_arch("gfx942") && !mfma.supports_arch("gfx1100"));
    assert!(!mfma.supports_arch("sm_90"));
    let fma = GemmKernel::fallback(GemmFamily::Z, GemmVariant::Fma).unwrap();
    assert!(fma.supports_arch("sm_52") && fma.supports_arch("gfx1100") && !fma.supports_arch("x86"));
    // A direct FMA config above 64 KiB of LDS runs on NVIDIA only.
    let big = GemmConfig { stages: 8, mt: [128, 128, 16], ..GemmConfig::fallback(GemmFamily::S, GemmVariant::Fma).unwrap() };
    let big = GemmConfig { lds: LdsLayout::Pad { a: 4, b: 4 }, ..big };
    big.validate(GemmFamily::S).unwrap();
    assert!(big.supports_arch(GemmFamily::S, "sm_90") && !big.supports_arch(GemmFamily::S, "gfx942"));
}

#[test]
fn candidates_are_valid_and_include_the_fallback() {
    for family in GemmFamily::ALL {
        for arch in ["sm_90", "sm_80", "gfx90a", "gfx942", "gfx1100"] {
            let c = GemmConfig::candidates(family, arch);
            assert!(c.contains(&GemmKernel::select(family, arch).config), "{} {arch}", family.tag());
            for cfg in &c {
                cfg.validate(family).unwrap();
                assert!(cfg.supports_arch(family, arch));
            }
        }
    }
    assert!(GemmConfig::candidates(GemmFamily::Hss, "sm_90").len() >= 16);
}

#[test]
fn sources_contain_every_kernel_and_no_include() {
    for k in GemmKernel::all() {
        let src = k.source();
        for name in k.kernel_names() {
            let mac = if k.config.is_wgmma() { "RM_GEMM_SM90_KERNEL" } else { "RM_GEMM_KERNEL" };
            assert!(src.contains(&format!("{mac}({name},")), "{name} missing");
        }
        // Real families name C as T; the k-major-only wgmma module holds TN alone.
        let pairs: &[(Trans, Trans)] = if k.config.is_wgmma() && !k.config.reads_mn_major() {
            assert_eq!(k.kernel_names().len(), 1);
            &[(Trans::C, Trans::N)]
        } else {
            &[(Trans::C, Trans::C), (Trans::N, Trans::C)]
        };
        for &(a, b) in pairs {
            assert!(src.contains(&k.kernel_name(a, b)));
        }
        assert!(!src.lines().any(|l| l.trim_start().starts_with("#include")), "{} has #include", k.module_name());
        assert!(!src.contains("#pragma once"));
    }
}

#[test]
fn launch_dims() {
    let k = GemmKernel::fallback(GemmFamily::S, GemmVariant::Fma).unwrap();
    let d = k.launch_dims(65, 128, 3);
    assert_eq!(d.grid, [2, 2, 3]);
    assert_eq!(d.block, [256, 1, 1]);
    assert_eq!(d.shared_bytes, 0);
    let k = GemmKernel::fallback(GemmFamily::Hss, GemmVariant::Mma).unwrap();
    let d = k.launch_dims(1, 1, 1);
    assert_eq!(d.block, [128, 1, 1]);
    // 4 stages of a 128x32 A tile and a 128x32 B tile of halves.
    assert_eq!(d.shared_bytes, 4 * (128 * 32 + 128 * 32) * 2);
    let k = GemmKernel::fallback(GemmFamily::D, GemmVariant::Mfma).unwrap();
    let d = k.launch_dims(129, 65, 1);
    assert_eq!(d.grid, [2, 2, 1]);
    assert_eq!(d.block, [256, 1, 1]);
}

#[test]
fn persistent_configs() {
    let c = GemmConfig::parse("mt32x32x32_w1x1_s3p_x_g8_o1_mma16x8x16f16").unwrap();
    assert!(c.persistent && c.stages == 3);
    assert_eq!(c.tag(), "mt32x32x32_w1x1_s3p_x_g8_o1_mma16x8x16f16");
    assert!(!GemmConfig::parse("mt32x32x32_w1x1_s3_x_g8_o1_mma16x8x16f16").unwrap().persistent);
    assert!(GemmConfig::parse("mt32x32x32_w1x1_sp_x_g8_o1_mma16x8x16f16").is_err());
    let k = GemmKernel::new(GemmFamily::Hss, c).unwrap();
    assert!(k.source().contains("RM_GEMM_KERNEL_PERSISTENT(gemm_hss_nt_mt32x32x32_w1x1_s3p"));
    assert!(k.with_batch(BatchForm::Pointers).source().contains("RM_GEMM_KERNEL_PA_PERSISTENT("));
    // One block per tile of every entry, capped at the blocks the device holds at once.
    let d = k.persistent_dims(33, 32, 10_000, 1, 132 * 16);
    assert_eq!(d.grid, [132 * 16, 1, 1]);
    assert_eq!(d.shared_bytes, 3 * (32 * 32 + 32 * 32) * 2);
    assert_eq!(k.persistent_dims(33, 32, 3, 1, 2112).grid, [6, 1, 1]);
    assert_eq!(k.persistent_dims(33, 32, 3, 4, 2112).grid, [24, 1, 1]);
    assert_eq!(k.persistent_dims(0, 32, 3, 1, 2112).grid, [1, 1, 1]);
    // Every arch with a direct path gets persistent candidates; CDNA's MFMA configs are
    // register-staged, so there only the FMA atom has them.
    for arch in ["sm_90", "sm_80", "gfx942"] {
        assert!(GemmConfig::candidates(GemmFamily::S, arch).iter().any(|c| c.persistent), "{arch}");
    }
    assert!(GemmConfig::candidates(GemmFamily::Hss, "sm_90").iter().any(|c| c.persistent && c.atom == Atom::MmaM16n8k16F16));
}

#[test]
fn repacking_configs() {
    let c = GemmConfig::parse("mt128x128x16_w2x4_s3r_p4x4_g8_o2_fmaw32x16").unwrap();
    assert!(c.repack && !c.persistent && c.stages == 3);
    assert_eq!(c.tag(), "mt128x128x16_w2x4_s3r_p4x4_g8_o2_fmaw32x16");
    let twin = GemmConfig { repack: false, ..c };
    assert_eq!(twin.tag(), "mt128x128x16_w2x4_s3_p4x4_g8_o2_fmaw32x16");
    assert!(GemmConfig::parse("mt32x32x16_w1x1_s4pr_p4x4_g8_o1_fmaw32x16").unwrap().persistent);
    assert!(GemmConfig::parse("mt128x128x16_w2x4_sr_p4x4_g8_o2_fmaw32x16").is_err());
    // The same kernel code as the twin: only the host's launch differs.
    let (k, t) = (GemmKernel::new(GemmFamily::S, c).unwrap(), GemmKernel::new(GemmFamily::S, twin).unwrap());
    assert_eq!(k.source().replace(&c.tag(), &twin.tag()), t.source());
    // FMA atoms on 32-bit real inputs only: the copy is the 32-bit transpose.
    for family in [GemmFamily::D, GemmFamily::C, GemmFamily::Hss] {
        let fma = GemmConfig { repack: true, ..GemmConfig::fallback(family, GemmVariant::Fma).unwrap() };
        assert!(fma.validate(family).unwrap_err().contains("repacked"), "{}", family.tag());
    }
    let mma = GemmConfig { repack: true, ..GemmConfig::fallback(GemmFamily::Xf32, GemmVariant::Mma).unwrap() };
    assert!(mma.validate(GemmFamily::Xf32).unwrap_err().contains("repacked"));
    // s twins of the direct warp-tiled tiles, none persistent, none for other families.
    let s = GemmConfig::candidates(GemmFamily::S, "sm_90");
    let twins: Vec<&GemmConfig> = s.iter().filter(|c| c.repack).collect();
    assert!(!twins.is_empty() && twins.iter().all(|c| c.atom == Atom::FmaWarp && c.is_direct() && !c.persistent));
    assert!(twins.iter().all(|c| s.contains(&GemmConfig { repack: false, ..**c })));
    assert!(GemmFamily::ALL.iter().filter(|f| **f != GemmFamily::S).all(|f| GemmConfig::candidates(*f, "sm_90").iter().all(|c| !c.repack)));
}

#[test]
fn wgmma_configs() {
    let k = GemmKernel::fallback(GemmFamily::Hss, GemmVariant::Wgmma).unwrap();
    let c = k.config;
    assert_eq!(c.tag(), "mt128x256x64_w2x1_s4_x_g8_o1_wgmma64xnx16f16");
    assert_eq!(GemmConfig::parse(&c.tag()).unwrap(), c);
    assert_eq!(c.threads(), 384);
    assert_eq!(c.accumulator_registers(GemmFamily::Hss), 128);
    // 4 stages of (128 + 256) x 64 halves, plus alignment slack, the epilogue's 2 x 2 staging
    // buffers of 64 x 32 f32 (f16 for h: half the bytes) and barriers
    assert_eq!(c.lds_bytes(GemmFamily::Hss), 1024 + 4 * 49152 + 32768 + 64);
    assert_eq!(c.lds_bytes(GemmFamily::H), 1024 + 4 * 49152 + 16384 + 64);
    assert!(k.supports_arch("sm_90") && !k.supports_arch("sm_80") && !k.supports_arch("sm_100") && !k.supports_arch("gfx942"));
    assert_eq!(k.arch_override(), Some("sm_90a"));
    assert!(!k.supports_batch(BatchForm::Pointers) && k.supports_batch(BatchForm::Strided));
    let src = k.source();
    assert!(src.contains("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%0, %1,"));
    assert!(src.contains("setp.ne.b32 p, %130, 0;") && src.contains("%127}, %128, %129, p, 1, 1, %131, %132; }"));
    assert!(GemmKernel::fallback(GemmFamily::S, GemmVariant::Wgmma).is_err());
    assert!(GemmKernel::fallback(GemmFamily::Bbs, GemmVariant::Wgmma).unwrap().source().contains("m64n256k16.f32.bf16.bf16"));
    // The s8 form: s32 accumulators ("+r"), scale-d only (no immediate scales or transposes), 128
    // i8 elements a K tile, the TN kernel alone; no split-K (its workspace is f32).
    let s8 = GemmKernel::fallback(GemmFamily::I8, GemmVariant::Wgmma).unwrap();
    assert_eq!(s8.config.mt, [128, 256, 128]);
    assert_eq!(s8.kernel_names(), vec![s8.kernel_name(Trans::T, Trans::N)]);
    let src = s8.source();
    assert!(src.contains("typedef int acc_t;") && src.contains("\"+r\"(d[127])"));
    assert!(src.contains("wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8 {%0, %1,") && src.contains("%127}, %128, %129, p; }"));
    assert!(GemmConfig { split_k: 2, ..s8.config }.validate(GemmFamily::I8).unwrap_err().contains("split-K"));
    assert!(s8.config.validate(GemmFamily::S).is_err(), "an s8 atom takes i8 inputs only");
    // Shapes gemm_sm90.hip does not implement are rejected with a reason.
    for (bad, why) in [
        (GemmConfig { mt: [128, 256, 32], ..c }, "MT_K"),
        (GemmConfig { mt: [128, 320, 64], ..c }, "MT_N"),
        (GemmConfig { mt: [192, 256, 64], waves: [2, 1], ..c }, "consumer warpgroups"),
        (GemmConfig { mt: [64, 256, 64], waves: [2, 1], split_k: 2, ..c }, "whole tiles"),
        (GemmConfig { mt: [64, 64, 64], stages: 17, ..c }, "stages"),
        (GemmConfig { mt: [128, 256, 64], waves: [1, 1], ..c }, "consumer warpgroups"),
        (GemmConfig { stages: 5, ..c }, "shared memory"),
        (GemmConfig { lds: LdsLayout::Pad { a: 0, b: 0 }, ..c }, "swizzled"),
        (GemmConfig { split_k: 0, ..c }, "split-K"),
        (GemmConfig { split_k: 17, ..c }, "split-K"),
    ] {
        let e = bad.validate(GemmFamily::Hss).unwrap_err();
        assert!(e.contains(why), "{}: `{e}` should mention `{why}`", bad.tag());
    }
    assert!(c.validate(GemmFamily::S).is_err() && c.validate(GemmFamily::I8).is_err());
    // One consumer warpgroup: 64-row tiles, 256 threads.
    let one = GemmConfig { mt: [64, 128, 64], waves: [1, 1], stages: 6, ..c };
    assert!(one.validate(GemmFamily::Hss).is_ok());
    assert_eq!(one.threads(), 256);
    assert_eq!(one.lds_bytes(GemmFamily::Hss), 1024 + 6 * (64 + 128) * 128 + 16384 + 96);
    // Two consumers taking 64-row tiles in turn (ping-pong): 384 threads, 32 accumulators, and
    // rings deep enough to hold 12 whole 64^3 problems of f16.
    let pp = GemmConfig { mt: [64, 64, 64], stages: 12, ..c };
    assert!(pp.validate(GemmFamily::Hss).is_ok() && pp.is_pingpong() && !c.is_pingpong() && !one.is_pingpong());
    assert_eq!(pp.tag(), "mt64x64x64_w2x1_s12_x_g8_o1_wgmma64xnx16f16");
    assert_eq!((pp.threads(), pp.accumulator_registers(GemmFamily::Hss)), (384, 32));
    assert_eq!(pp.lds_bytes(GemmFamily::Hss), 1024 + 12 * 16384 + 32768 + 192);
    assert!(GemmKernel::new(GemmFamily::Hss, pp).unwrap().source().contains("rm_sm90_config<rm_wgmma_f16_n64, 64, 64, 12, 8, 2, 4, 0, 0, 1, 0>"));
    assert!(GemmConfig { stages: 13, ..pp }.validate(GemmFamily::Hss).unwrap_err().contains("shared memory"));
    // Split-K: its own tag field, f32 staging whatever D is, and the second kernel.
    let split = GemmConfig { split_k: 2, ..c };
    assert_eq!(split.tag(), "mt128x256x64_w2x1_s4_x_g8_o1_k2_wgmma64xnx16f16");
    assert_eq!(GemmConfig::parse(&split.tag()).unwrap(), split);
    assert_eq!(split.lds_bytes(GemmFamily::H), 1024 + 4 * 49152 + 32768 + 64);
    let k2 = GemmKernel::new(GemmFamily::H, split).unwrap();
    let reduce = k2.reduce_kernel_name().unwrap();
    assert_eq!(reduce, "gemm_h_mt128x256x64_w2x1_s4_x_g8_o1_k2_wgmma64xnx16f16_reduce");
    assert_eq!(k2.kernel_names().last(), Some(&reduce));
    assert!(k2.source().contains(&format!("RM_GEMM_SPLITK_REDUCE({reduce}, float, rm_gemm_ty_h)")));
    // The config type says only that the kernel splits: the count is a kernel argument.
    assert!(k2.source().contains("rm_sm90_config<rm_wgmma_f16_n256, 128, 256, 4, 8, 2, 2, 1, 0, 1, 0>"));
    assert!(k.reduce_kernel_name().is_none());
}

#[test]
fn wgmma_multicast_configs() {
    // Clusters of two sharing B (`m` after the stages): the config's flag, the cluster kernel
    // macro, and a grid of whole clusters, one per pair of tiles in m.
    let hss = GemmKernel::fallback(GemmFamily::Hss, GemmVariant::Wgmma).unwrap().config;
    let c = GemmConfig { multicast: true, stages: 3, ..hss };
    assert_eq!(c.tag(), "mt128x256x64_w2x1_s3m_x_g8_o1_wgmma64xnx16f16");
    assert_eq!(GemmConfig::parse(&c.tag()).unwrap(), c);
    assert!(c.validate(GemmFamily::Hss).is_ok());
    assert_eq!(c.lds_bytes(GemmFamily::Hss), GemmConfig { stages: 3, ..hss }.lds_bytes(GemmFamily::Hss));
    let k = GemmKernel::new(GemmFamily::Hss, c).unwrap();
    assert!(k.source().contains("rm_sm90_config<rm_wgmma_f16_n256, 128, 256, 3, 8, 2, 4, 0, 0, 1, 1>"));
    assert!(k.source().contains("RM_GEMM_SM90_KERNEL_CLUSTER2(gemm_hss_nt_mt128x256x64_w2x1_s3m_"));
    assert!(!GemmKernel::new(GemmFamily::Hss, hss).unwrap().source().contains("RM_GEMM_SM90_KERNEL_CLUSTER2(gemm_"));
    // 5 pairs of 128-row tiles (9 tiles) x 2 columns = 10 pairs: 20 blocks; 132 SMs hold 66 clusters.
    assert_eq!(k.persistent_dims(1100, 512, 1, 1, 132).grid, [20, 1, 1]);
    assert_eq!(k.persistent_dims(8192, 8192, 1, 1, 132).grid, [132, 1, 1]);
    assert_eq!(k.persistent_dims(8192, 8192, 1, 1, 133).grid, [132, 1, 1]);
    assert_eq!(k.persistent_dims(1, 1, 1, 1, 1).grid, [2, 1, 1]);
    // Rejected: other atoms, ping-pong, several blocks per SM, B halves that are not whole boxes.
    let mma = GemmConfig::fallback(GemmFamily::Hss, GemmVariant::Mma).unwrap();
    assert!(GemmConfig { multicast: true, ..mma }.validate(GemmFamily::Hss).unwrap_err().contains("wgmma configs only"));
    for bad in [
        GemmConfig { mt: [64, 64, 64], ..c },
        GemmConfig { mt: [64, 128, 64], waves: [1, 1], min_waves: 2, ..c },
        GemmConfig { mt: [128, 192, 64], ..c },
    ] {
        assert!(bad.validate(GemmFamily::Hss).unwrap_err().contains("multicast"), "{}", bad.tag());
    }
}

#[test]
fn wgmma_unit_grid_configs() {
    // A block a work unit (`u` after the stages): the same kernel source under its own name, a
    // grid of every unit however few blocks fit at once, wgmma only, not with multicast or
    // split-K.
    let hss = GemmKernel::fallback(GemmFamily::Hss, GemmVariant::Wgmma).unwrap().config;
    let persistent = GemmConfig { mt: [128, 64, 64], stages: 2, min_waves: 2, ..hss };
    let c = GemmConfig { unit_grid: true, ..persistent };
    assert_eq!(c.tag(), "mt128x64x64_w2x1_s2u_x_g8_o2_wgmma64xnx16f16");
    assert_eq!(GemmConfig::parse(&c.tag()).unwrap(), c);
    let xf32 = GemmConfig::parse("mt64x64x32_w1x1_s2tu_x_g8_o3_wgmma64xnx8tf32").unwrap();
    assert!(xf32.unit_grid && xf32.smem_transpose && xf32.validate(GemmFamily::Xf32).is_ok());
    assert!(c.validate(GemmFamily::Hss).is_ok());
    let (k, kp) = (GemmKernel::new(GemmFamily::Hss, c).unwrap(), GemmKernel::new(GemmFamily::Hss, persistent).unwrap());
    assert_eq!(k.source().replace("s2u_", "s2_"), kp.source());
    // 128^3 x 2048: 1 x 2 tiles an entry, 4096 units; 132 SMs hold 264 blocks.
    assert_eq!(k.persistent_dims(128, 128, 2048, 1, 264).grid, [4096, 1, 1]);
    assert_eq!(kp.persistent_dims(128, 128, 2048, 1, 264).grid, [264, 1, 1]);
    assert_eq!(k.persistent_dims(1, 1, 1, 1, 264).grid, [1, 1, 1]);
    // Past the grid's limit the blocks take several units (the kernel's walk steps by the grid).
    assert_eq!(k.persistent_dims(1 << 16, 1 << 16, 1 << 12, 1, 264).grid, [i32::MAX as u32, 1, 1]);
    let mma = GemmConfig::fallback(GemmFamily::Hss, GemmVariant::Mma).unwrap();
    assert!(GemmConfig { unit_grid: true, ..mma }.validate(GemmFamily::Hss).unwrap_err().contains("wgmma configs only"));
    for bad in [GemmConfig { multicast: true, mt: [128, 128, 64], min_waves: 1, ..c }, GemmConfig { split_k: 2, ..c }] {
        assert!(bad.validate(GemmFamily::Hss).unwrap_err().contains("(`u`)"), "{}", bad.tag());
    }
}

#[test]
fn tf32_smem_transpose_configs() {
    // tf32 wgmma transposing MN-major operands in shared memory: `t` after the stages, a second
    // ring of stages and barriers, and every layout's kernel in the module (the plain tf32
    // module holds TN only, the host copies the rest k-major).
    let plain = GemmConfig { mt: [64, 64, 32], ..GemmKernel::fallback(GemmFamily::Xf32, GemmVariant::Wgmma).unwrap().config };
    let c = GemmConfig { smem_transpose: true, stages: 6, ..plain };
    assert_eq!(c.tag(), "mt64x64x32_w2x1_s6t_x_g8_o1_wgmma64xnx8tf32");
    assert_eq!(GemmConfig::parse(&c.tag()).unwrap(), c);
    assert!(c.validate(GemmFamily::Xf32).is_ok() && c.reads_mn_major() && !plain.reads_mn_major());
    // 2 rings x 6 stages x (64 + 64) x 32 floats, 2 x 2 epilogue buffers of 64 x 32 f32, 4 barriers a stage
    assert_eq!(c.lds_bytes(GemmFamily::Xf32), 1024 + 2 * 6 * 16384 + 32768 + 2 * 6 * 16);
    let k = GemmKernel::new(GemmFamily::Xf32, c).unwrap();
    assert_eq!(k.kernel_names().len(), 4);
    assert_eq!(GemmKernel::new(GemmFamily::Xf32, GemmConfig { stages: 6, ..plain }).unwrap().kernel_names().len(), 1);
    assert!(k.source().contains("rm_sm90_config<rm_wgmma_tf32_n64, 64, 64, 6, 8, 2, 4, 0, 1, 1, 0>"));
    // The budget counts both rings: 64 x 64 takes at most 6 stages, 128 x 128 at most 3.
    assert!(GemmConfig { stages: 7, ..c }.validate(GemmFamily::Xf32).unwrap_err().contains("shared memory"));
    let big = GemmConfig { mt: [128, 128, 32], stages: 3, ..c };
    assert!(big.validate(GemmFamily::Xf32).is_ok());
    assert!(GemmConfig { stages: 4, ..big }.validate(GemmFamily::Xf32).unwrap_err().contains("shared memory"));
    // Other atoms read either order (16-bit wgmma, mma.sync) or have no such kernel (s8).
    let hss = GemmKernel::fallback(GemmFamily::Hss, GemmVariant::Wgmma).unwrap().config;
    assert!(GemmConfig { smem_transpose: true, ..hss }.validate(GemmFamily::Hss).unwrap_err().contains("tf32 wgmma"));
    let mma = GemmConfig::fallback(GemmFamily::Xf32, GemmVariant::Mma).unwrap();
    assert!(GemmConfig { smem_transpose: true, ..mma }.validate(GemmFamily::Xf32).unwrap_err().contains("tf32 wgmma"));
    // Two blocks per SM: one consumer, small enough that two fit.
    let two = GemmConfig { waves: [1, 1], stages: 2, min_waves: 2, ..c };
    assert_eq!(two.tag(), "mt64x64x32_w1x1_s2t_x_g8_o2_wgmma64xnx8tf32");
    assert!(two.validate(GemmFamily::Xf32).is_ok());
    assert!(GemmKernel::new(GemmFamily::Xf32, two).unwrap().source().contains("rm_sm90_config<rm_wgmma_tf32_n64, 64, 64, 2, 8, 1, 4, 0, 1, 2, 0>"));
    // Three stages fit twice only with one epilogue staging buffer (8 KiB), four not at all;
    // three blocks of two stages likewise.
    let (bufs_1, bufs_2) = (1024 + 2 * 3 * 16384 + 8192 + 96, 1024 + 2 * 2 * 16384 + 16384 + 64);
    assert_eq!((GemmConfig { stages: 3, ..two }.lds_bytes(GemmFamily::Xf32), two.lds_bytes(GemmFamily::Xf32)), (bufs_1, bufs_2));
    assert!(GemmConfig { stages: 4, ..two }.validate(GemmFamily::Xf32).unwrap_err().contains("2 blocks"));
    let three_xposed = GemmConfig { min_waves: 3, ..two };
    assert!(three_xposed.validate(GemmFamily::Xf32).is_ok());
    assert_eq!(three_xposed.lds_bytes(GemmFamily::Xf32), 1024 + 2 * 2 * 16384 + 8192 + 64);
    // Three (or four) blocks of one 16-bit consumer each, when that many fit the SM's shared memory.
    let three = GemmConfig { mt: [64, 64, 64], waves: [1, 1], stages: 3, min_waves: 3, ..hss };
    assert_eq!(three.tag(), "mt64x64x64_w1x1_s3_x_g8_o3_wgmma64xnx16f16");
    assert!(three.validate(GemmFamily::Hss).is_ok());
    // (Four stages fit three times with one staging buffer, five not.)
    assert!(GemmConfig { stages: 5, ..three }.validate(GemmFamily::Hss).unwrap_err().contains("3 blocks"));
    assert!(GemmConfig { min_waves: 5, ..three }.validate(GemmFamily::Hss).unwrap_err().contains("min_waves"));
    assert!(GemmConfig { min_waves: 0, ..three }.validate(GemmFamily::Hss).unwrap_err().contains("min_waves"));
    assert!(GemmConfig { min_waves: 3, ..c }.validate(GemmFamily::Xf32).unwrap_err().contains("min_waves"));
    // Two consumers at two blocks per SM: 64-wide tiles only (80 registers a thread).
    let pp_two = GemmConfig { mt: [64, 64, 64], waves: [2, 1], stages: 3, min_waves: 2, ..hss };
    assert!(pp_two.validate(GemmFamily::Hss).is_ok());
    assert!(GemmConfig { mt: [128, 128, 64], stages: 2, ..pp_two }.validate(GemmFamily::Hss).unwrap_err().contains("64-wide"));
    let cands = GemmConfig::candidates(GemmFamily::Xf32, "sm_90");
    assert!(cands.iter().any(|c| c.smem_transpose) && cands.iter().filter(|c| c.smem_transpose).all(|c| c.validate(GemmFamily::Xf32).is_ok()));
}

#[test]
fn blocked_split_k_configs() {
    // Blocked tiles of real families with f32 or f64 sums split too: slice kernels that take the
    // workspace, and a reduce that sums it in the atom's accumulator type.
    let direct = GemmConfig::candidates(GemmFamily::Hss, "sm_90").into_iter().find(|c| c.variant() == GemmVariant::Mma && !c.persistent).unwrap();
    let split = GemmConfig { split_k: 4, ..direct };
    assert!(split.validate(GemmFamily::Hss).is_ok());
    assert!(split.tag().contains("_o1_k4_mma16x8x16f16"), "{}", split.tag());
    assert_eq!(GemmConfig::parse(&split.tag()).unwrap(), split);
    let k = GemmKernel::new(GemmFamily::Hss, split).unwrap();
    let src = k.source();
    let cfg = format!("rm_cfg_{}", k.module_name());
    assert!(src.contains(&format!("RM_GEMM_KERNEL_SPLITK({}, {cfg}, rm_gemm_ty_hss, RM_OP_N, RM_OP_T)", k.kernel_name(Trans::N, Trans::T))));
    let reduce = k.reduce_kernel_name().unwrap();
    assert!(src.contains(&format!("RM_GEMM_SPLITK_REDUCE({reduce}, {cfg}::Atom::acc_t, rm_gemm_ty_hss)")));
    assert_eq!(k.kernel_names().len(), 5);
    // Pointer arrays have no workspace: the unsplit twin runs them, and the split module has
    // no pointer-array form.
    assert!(!k.supports_batch(BatchForm::Pointers) && k.supports_batch(BatchForm::Strided));
    let twin = k.unsplit();
    assert_eq!(twin.config, direct);
    assert!(twin.with_batch(BatchForm::Pointers).supports_batch(BatchForm::Pointers));
    let pa = k.with_batch(BatchForm::Pointers);
    assert!(pa.reduce_kernel_name().is_none() && !pa.source().contains("RM_GEMM_KERNEL_SPLITK(gemm_"));
    // f64, f32 and complex tiles split; persistent grids and the i8 family do not.
    for (family, tag) in [
        (GemmFamily::D, "mt64x64x16_w2x2_s3_p4x4_g8_o3_k8_mma16x8x16f64"),
        (GemmFamily::S, "mt64x64x16_t16x16_s1_p4x4_g1_o1_k2_fma"),
        (GemmFamily::C, "mt64x64x8_t16x16_s1_p4x4_g1_o1_k2_fma"),
        (GemmFamily::Z, "mt16x128x8_w1x4_s4_p6x6_g8_o2_k4_mma16x8x8z"),
    ] {
        GemmConfig::parse(tag).unwrap().validate(family).unwrap();
    }
    for (family, tag) in [(GemmFamily::S, "mt32x32x32_t8x8_s3p_p4x4_g8_o1_k2_fma"), (GemmFamily::I8, "mt128x128x64_w2x2_s3_x_g8_o1_k2_mma16x8x32s8")] {
        let e = GemmConfig::parse(tag).unwrap().validate(family).unwrap_err();
        assert!(e.contains("split-K"), "{tag}: {e}");
    }
    // The candidates have split tiles for s, d and z.
    for family in [GemmFamily::S, GemmFamily::D, GemmFamily::Z] {
        assert!(GemmConfig::candidates(family, "sm_90").iter().any(|c| c.split_k > 1 && !c.is_wgmma()), "{family:?}");
    }
}

#[test]
fn prefetch_configs() {
    // The tag carries the flag after the stage count, and the C++ config its template argument.
    let tag = "mt64x64x16_w2x2_s4f_p4x4_g8_o3_mma16x8x8f64";
    let c = GemmConfig::parse(tag).unwrap();
    assert!(c.prefetch && c.stages == 4 && c.min_waves == 3);
    assert_eq!(c.tag(), tag);
    c.validate(GemmFamily::D).unwrap();
    assert!(c.cpp(GemmFamily::D).ends_with(", 1>"));
    assert!(!GemmConfig { prefetch: false, ..c }.cpp(GemmFamily::D).ends_with(", 1>"));
    // An odd number of atom k steps per K tile (16 / 16), register staging, persistent grids and
    // wgmma are refused.
    for (family, tag) in [
        (GemmFamily::D, "mt128x64x16_w2x2_s3f_p4x4_g8_o1_mma16x8x16f64"),
        (GemmFamily::S, "mt128x128x8_w2x4_s1f_p4x4_g1_o1_fmaw32x16"),
        (GemmFamily::D, "mt32x32x32_w2x2_s3pf_x_g8_o1_mma16x8x16f64"),
        (GemmFamily::Hss, "mt128x128x64_w2x1_s4f_x_g8_o1_wgmma64xnx16f16"),
    ] {
        let e = GemmConfig::parse(tag).unwrap().validate(family).unwrap_err();
        assert!(e.contains("prefetch"), "{tag}: {e}");
    }
    // The d candidates on sm_90 have prefetching tiles, all valid.
    let d = GemmConfig::candidates(GemmFamily::D, "sm_90");
    assert!(d.iter().filter(|c| c.prefetch).count() >= 4);
}
