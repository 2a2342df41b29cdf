"""twin"""
